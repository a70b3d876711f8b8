import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { feedColumns, type FeedKind } from '@portal/contracts/data-feeds';
import { generateDemoData, type DemoBatch } from '../db/demo-data';

/**
 * The demo's sample feed files (docs/requirements/data-feeds.md#demo-data): the deterministic demo generator's rows
 * written in the feed layouts, dated as of DEMO_FEED_DAY. `npm start` imports them on first start through the same
 * import as a contractor's files; the demo's claim dates then move with the calendar (db/demo-data.ts).
 */
export const DEMO_FEED_DAY = '2026-11-22';
export const DEMO_FEED_LOCATIONS = 1000;
export const demoFeedFolder = fileURLToPath(new URL('./demo-feeds', import.meta.url));
export const demoFeedFile = (kind: FeedKind) => `${demoFeedFolder}/${kind}.csv`;

const csvField = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const line = (values: string[]) => `${values.map(csvField).join(',')}\n`;

/** A PECOS-style enrollment id from the location's index: `I` + an 8-digit date + 6 digits. */
const enrollmentId = (i: number) => `I20${String(10 + (i % 15)).padStart(2, '0')}0101${String(i).padStart(6, '0')}`;

function rowsOf(kind: FeedKind, batch: DemoBatch, firstIndex: number): string[][] {
  const byId = new Map(batch.locations.map((l) => [l.id, l]));
  if (kind === 'provider-enrollment')
    return batch.locations.map((l, k) => [
      l.npi,
      String(1000000000 + (((firstIndex + k) * 7919) % 899999999)).slice(0, 10),
      enrollmentId(firstIndex + k),
      l.lineOfBusiness === 'A' ? '00-85' : '14-08',
      l.state,
      l.legalName,
      '',
      '',
      l.ptan,
      l.tin,
      l.jurisdiction,
      l.lineOfBusiness,
      l.addressLine1,
      l.city,
      l.zip,
      `20${String(10 + ((firstIndex + k) % 15)).padStart(2, '0')}-01-01`,
      '',
    ]);
  if (kind === 'paid-claims')
    return batch.claims.map((c) => {
      const l = byId.get(c.locationId)!;
      return [
        c.claimNumber,
        l.npi,
        l.ptan,
        l.lineOfBusiness,
        c.patientMbi,
        c.dateOfService,
        c.paidAmount,
        c.paidDate,
        c.checkNumber,
      ];
    });
  return batch.ediEnrollments.map((e) => {
    const l = byId.get(e.locationId)!;
    return [l.npi, l.ptan, l.lineOfBusiness, e.submitterId, e.networkServiceVendor, e.ddeAccessType, e.status];
  });
}

/**
 * Writes the first `locations` demo locations of each kind to `folder` (`<kind>.csv`): the committed samples
 * (`npm run demo:feeds -w server`), or the slice `npm start` imports when SEED_LOCATIONS is below DEMO_FEED_LOCATIONS.
 */
export async function writeDemoFeeds(
  folder: string,
  locations: number,
  seed?: number,
): Promise<Record<FeedKind, string>> {
  const kinds: FeedKind[] = ['provider-enrollment', 'paid-claims', 'edi-enrollments'];
  const files = Object.fromEntries(kinds.map((kind) => [kind, `${folder}/${kind}.csv`])) as Record<FeedKind, string>;
  const streams = kinds.map((kind) => {
    const stream = createWriteStream(files[kind]);
    stream.write(line(feedColumns[kind].map((c) => c.name)));
    return stream;
  });
  let index = 0;
  for (const batch of generateDemoData({ locations, today: DEMO_FEED_DAY, ...(seed === undefined ? {} : { seed }) })) {
    for (const [k, kind] of kinds.entries()) {
      const text = rowsOf(kind, batch, index).map(line).join('');
      if (!streams[k]!.write(text)) await once(streams[k]!, 'drain');
    }
    index += batch.locations.length;
  }
  for (const stream of streams) stream.end();
  await Promise.all(streams.map((stream) => finished(stream)));
  return files;
}
