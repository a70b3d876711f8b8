import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import type { FeedKind } from '@portal/contracts/data-feeds';
import type { DatabaseHandle } from '../db/client';
import {
  DEMO_SEED,
  DETAILED_LOCATIONS,
  refreshDemoClaimDates,
  seedBulkDemoLocations,
  type SeedResult,
} from '../db/demo-data';
import { DEMO_FEED_DAY, DEMO_FEED_LOCATIONS, demoFeedFile, writeDemoFeeds } from './demo-feeds';
import { importFeed } from './import';

const KINDS: FeedKind[] = ['provider-enrollment', 'paid-claims', 'edi-enrollments'];

/**
 * Copies the committed sample files' rows of the first `locations` demo locations to `folder`: the provider rows
 * in file order, then the claims and EDI enrollments of those locations (by NPI + PTAN + line of business).
 */
async function sliceSampleFeeds(folder: string, locations: number): Promise<Record<FeedKind, string>> {
  const keys = new Set<string>();
  const files = {} as Record<FeedKind, string>;
  for (const kind of KINDS) {
    files[kind] = join(folder, `${kind}.csv`);
    const out = createWriteStream(files[kind]);
    let header = true;
    let taken = 0;
    for await (const line of createInterface({ input: createReadStream(demoFeedFile(kind)), crlfDelay: Infinity })) {
      if (header) {
        header = false;
        out.write(`${line}\n`);
        continue;
      }
      if (kind === 'provider-enrollment') {
        if (taken++ >= locations) break;
        const [row] = parse(line) as string[][];
        keys.add(`${row![0]}|${row![8]}|${row![11]}`);
        out.write(`${line}\n`);
      } else {
        const at = kind === 'paid-claims' ? 1 : 0;
        const cells = line.split(',');
        if (keys.has(`${cells[at]}|${cells[at + 1]}|${cells[at + 2]}`)) out.write(`${line}\n`);
      }
    }
    out.end();
    await finished(out);
  }
  return files;
}

/**
 * The demo data of a first start (docs/requirements/data-feeds.md#demo-data), loaded through the data-feed import
 * from the sample files in `server/demo-feeds/` (another seed than the default writes them afresh from the
 * generator). Once: an app_state marker says it was done, and several instances starting at once wait for the
 * first (an advisory lock). Locations past the samples' 1,000 are made in bulk by PostgreSQL (benchmarks). The
 * claims are dated as of the samples' day and moved to today like every demo claim.
 */
export async function seedDemoThroughFeeds(
  database: DatabaseHandle,
  options: { locations: number; seed?: number; reset?: boolean; today?: string },
): Promise<SeedResult> {
  const seed = options.seed ?? DEMO_SEED;
  const lock = await database.dedicated();
  let result: SeedResult;
  try {
    await lock.query(`select pg_advisory_lock(hashtext('portal:demo-data'))`);
    const { rows } = await lock.query(`select value from app_state where key = 'demo_data'`);
    if (rows.length && !options.reset) {
      const { rows: counted } = await lock.query<{ n: number }>(`select count(*)::int as n from provider_locations`);
      result = { seeded: false, locations: Number(counted[0]?.n ?? 0), claims: 0 };
    } else {
      if (options.reset) {
        await lock.query('delete from claims');
        await lock.query('delete from provider_locations');
      }
      const detailed = Math.min(options.locations, DETAILED_LOCATIONS, DEMO_FEED_LOCATIONS);
      const folder = mkdtempSync(join(tmpdir(), 'portal-demo-feeds-'));
      let claims = 0;
      try {
        const files =
          seed === DEMO_SEED ? await sliceSampleFeeds(folder, detailed) : await writeDemoFeeds(folder, detailed, seed);
        for (const kind of KINDS) {
          const summary = await importFeed(database, {
            kind,
            file: files[kind],
            startedBy: 'demo',
            force: true,
            ...(options.today ? { today: options.today } : {}),
          });
          if (kind === 'paid-claims') claims = summary.inserted + summary.updated;
        }
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
      if (options.locations > detailed) {
        await seedBulkDemoLocations(database.db, { from: detailed, to: options.locations, seed, today: DEMO_FEED_DAY });
        claims += (options.locations - detailed) * 3;
      }
      const value = JSON.stringify({ seed, locations: options.locations, today: DEMO_FEED_DAY });
      await lock.query(
        `insert into app_state (key, value) values ('demo_data', $1::jsonb)
         on conflict (key) do update set value = excluded.value, updated_at = now()`,
        [value],
      );
      result = { seeded: true, locations: options.locations, claims };
    }
  } finally {
    await lock.query(`select pg_advisory_unlock(hashtext('portal:demo-data'))`).catch(() => {});
    await lock.close();
  }
  // The claims were dated as of the samples' day: move them to today (as at every start).
  await refreshDemoClaimDates(database.db, options.today);
  return result;
}
