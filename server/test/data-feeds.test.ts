import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_COOKIE } from '@portal/contracts/auth';
import { DDE_SUBMIT_PATH, GET_EASI_PATH } from '@portal/contracts/dde-access';
import { FIND_ADMIN_PATH } from '@portal/contracts/find-admin';
import { ACCOUNT_ROUTES } from '@portal/contracts/account';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { asc, eq, like, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claims, ediEnrollments, importRuns, providerLocations, userLocations } from '../src/db/schema';
import { generateDemoData } from '../src/db/demo-data';
import { CLAIMS_RETENTION_JOB } from '../src/feeds/claims-retention';
import { DEMO_FEED_LOCATIONS, demoFeedFile, writeDemoFeeds } from '../src/feeds/demo-feeds';
import { seedDemoThroughFeeds } from '../src/feeds/demo-seed';
import { importFeed, type ImportRequest } from '../src/feeds/import';
import { FeedRefusal } from '../src/feeds/refusal';
import { write835, type PaidClaim } from '../src/feeds/x12-sample';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, portalHeaders } from './helpers';
import { createAccount, newIp, link } from './factories';

/**
 * The data-feed import (docs/requirements/data-feeds.md) on PGlite, and on PostgreSQL when TEST_DATABASE_URL is
 * set: merges, end-dating and what it does to validation, find-admin and DDE, idempotence, refusals, the reject
 * report, two imports at once.
 */

const TODAY = '2026-11-23';
const clockNow = () => new Date(`${TODAY}T09:00:00Z`);
/** The committed sample file's header and data lines. */
function sample(kind: 'provider-enrollment' | 'paid-claims' | 'edi-enrollments') {
  const [header, ...rows] = readFileSync(demoFeedFile(kind), 'utf8').trimEnd().split('\n');
  return { header: header!, rows };
}
const providers = sample('provider-enrollment');
const paid = sample('paid-claims');
const edi = sample('edi-enrollments');
/** NPI, PTAN and TIN of a provider-enrollment line (no quoted field precedes them). */
const idsOf = (line: string) => {
  const cells = line.split(',');
  // ORG_NAME (index 5) may be quoted and hold a comma: count from the end instead.
  const tail = cells.slice(-9);
  return { npi: cells[0]!, ptan: tail[0]!, tin: tail[1]!, jurisdiction: tail[2]!, lineOfBusiness: tail[3]! };
};

describe('data feeds: import', () => {
  let app: FastifyInstance;
  let folder: string;
  let fileCounter = 0;

  const file = (text: string | Buffer) => {
    const path = join(folder, `feed-${++fileCounter}.csv`);
    writeFileSync(path, text);
    return path;
  };
  const csv = (header: string, rows: string[]) => file(`${header}\n${rows.map((r) => `${r}\n`).join('')}`);
  const run = (request: Omit<ImportRequest, 'startedBy' | 'today'> & { today?: string }) =>
    importFeed(app.database, { startedBy: 'command', today: TODAY, ...request });
  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FeedRefusal);
    return err as FeedRefusal;
  };
  /** Everything the feeds write, to show a refused file left the data as it was. */
  const state = async () => {
    const db = app.database.db;
    return JSON.stringify([
      await db.select().from(providerLocations).orderBy(asc(providerLocations.npi), asc(providerLocations.ptan)),
      await db.select().from(claims).orderBy(asc(claims.claimNumber)),
      await db.select().from(ediEnrollments).orderBy(asc(ediEnrollments.locationId)),
    ]);
  };
  const post = (url: string, payload: object, cookie?: string) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: newIp(),
      headers: { ...portalHeaders, ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}) },
    });

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'feeds-test-'));
    ({ app } = await buildTestApp({ clock: clockNow }));
    // 100 locations, their claims and EDI enrollments: the first sample rows.
    await run({
      kind: 'provider-enrollment',
      file: csv(providers.header, providers.rows.slice(0, 100)),
      mode: 'snapshot',
    });
    const keys = new Set(providers.rows.slice(0, 100).map((l) => `${idsOf(l).npi},${idsOf(l).ptan}`));
    await run({
      kind: 'paid-claims',
      file: csv(
        paid.header,
        paid.rows.filter((l) => keys.has(l.split(',').slice(1, 3).join(','))),
      ),
    });
    await run({
      kind: 'edi-enrollments',
      file: csv(
        edi.header,
        edi.rows.filter((l) => keys.has(l.split(',').slice(0, 2).join(','))),
      ),
      mode: 'snapshot',
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a first import inserts every row and records the run', async () => {
    const [{ n }] = (await app.database.db.select({ n: sql<number>`count(*)::int` }).from(providerLocations)) as [
      { n: number },
    ];
    expect(n).toBe(100);
    const runs = await app.database.db.select().from(importRuns).orderBy(asc(importRuns.id));
    expect(runs.map((r) => [r.kind, r.mode, r.outcome, r.rowsRead === r.rowsInserted])).toEqual([
      ['provider-enrollment', 'snapshot', 'succeeded', true],
      ['paid-claims', 'delta', 'succeeded', true],
      ['edi-enrollments', 'snapshot', 'succeeded', true],
    ]);
    expect(runs[1]!.rowsInserted).toBe(300);
  });

  it('a run’s finished_at is when its merge ended, not when its transaction began', async () => {
    // The merge's claims insert takes a while (a statement trigger sleeps) and notes the time it ended.
    const db = app.database.db;
    await db.execute(sql`create table merge_clock_probe (at timestamptz not null)`);
    await db.execute(sql`create function merge_clock_probe() returns trigger language plpgsql as $$
      begin perform pg_sleep(0.3); insert into merge_clock_probe values (clock_timestamp()); return null; end $$`);
    await db.execute(sql`create trigger merge_clock_probe after insert on claims
      for each statement execute function merge_clock_probe()`);
    try {
      const summary = await run({ kind: 'paid-claims', file: csv(paid.header, [paid.rows[0]!]) });
      const probed = (await db.execute(sql`select at from merge_clock_probe`)) as unknown as {
        rows: [{ at: string | Date }];
      };
      const [probe] = probed.rows;
      const [row] = await db.select().from(importRuns).where(eq(importRuns.id, summary.runId));
      expect(row!.finishedAt!.getTime()).toBeGreaterThanOrEqual(new Date(probe.at).getTime());
    } finally {
      await db.execute(sql`drop trigger merge_clock_probe on claims`);
      await db.execute(sql`drop function merge_clock_probe()`);
      await db.execute(sql`drop table merge_clock_probe`);
    }
  });

  it('a delta updates changed rows only and never ends one', async () => {
    const changed = providers.rows[0]!.replace(/,(\d{5}),(20\d\d-01-01),$/, ',$1,$2,');
    const renamed = changed.replace(idsOf(changed).tin, '123456789');
    const fresh = providers.rows[100]!;
    const summary = await run({
      kind: 'provider-enrollment',
      file: csv(providers.header, [renamed, providers.rows[1]!, fresh]),
    });
    expect(summary).toMatchObject({ read: 3, inserted: 1, updated: 1, endDated: 0, rejected: 0 });
    const [row] = await app.database.db
      .select()
      .from(providerLocations)
      .where(eq(providerLocations.npi, idsOf(renamed).npi));
    expect(row!.tin).toBe('123456789');
    expect(row!.importRunId).toBe(summary.runId);
  });

  it('the same file again is "already imported"; forced, it changes no row', async () => {
    const path = csv(providers.header, providers.rows.slice(0, 101));
    await run({ kind: 'provider-enrollment', file: path });
    const before = await state();
    const again = await refusal(run({ kind: 'provider-enrollment', file: path }));
    expect(again.code).toBe('Already_Imported');
    expect(again.message).toMatch(/^already imported \(run \d+, 2\d{3}-\d\d-\d\d \d\d:\d\d UTC\)/);
    const forced = await run({ kind: 'provider-enrollment', file: path, force: true });
    expect(forced).toMatchObject({ read: 101, inserted: 0, updated: 0, endDated: 0 });
    expect(await state()).toBe(before);
  });

  it('a snapshot end-dates the missing location: no validation, no find-admin answer, no DDE request; its people keep their accounts', async () => {
    const ended = idsOf(providers.rows[5]!);
    const [location] = await app.database.db
      .select()
      .from(providerLocations)
      .where(eq(providerLocations.npi, ended.npi));
    const user = await createAccount(app, 'feeds.ended');
    await link(app, user.id, location!.id, 'administrator');
    const cookie = await createSession(app.database.db, {
      userId: user.id,
      stage: 'active',
      now: clockNow(),
      limits: app.config.sessions,
    });
    const provider = {
      npi: ended.npi,
      ptan: ended.ptan,
      tin: ended.tin,
      jurisdiction: ended.jurisdiction,
      lineOfBusiness: ended.lineOfBusiness,
      passthroughResponse: true,
    };
    const ddeForm = () => ({
      idempotencyKey: randomUUID(),
      locationId: location!.id,
      requestType: 'new',
      ddeAccessType: 'inquiry',
      submitterId: 'abc123',
      networkServiceVendor: 'Northwind Network Services',
      contactPhone: '(410) 555-0123',
    });
    /** The person's locations as My account and /portal list them. */
    const ownLocations = async () => {
      const res = await app.inject({
        method: 'GET',
        url: ACCOUNT_ROUTES.account,
        headers: { ...portalHeaders, cookie: `${SESSION_COOKIE}=${cookie}` },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { data: { locations: { legalName: string; endedOn: string | null }[] } }).data.locations;
    };
    // Before: in force everywhere (an administrator exists, so validation answers that code).
    expect(await ownLocations()).toEqual([expect.objectContaining({ legalName: location!.legalName, endedOn: null })]);
    expect((await post(FIND_ADMIN_PATH, { npi: ended.npi, ptan: ended.ptan, tin: ended.tin })).statusCode).toBe(200);
    expect((await post(DDE_SUBMIT_PATH, ddeForm(), cookie)).statusCode).toBe(200);

    const rows = providers.rows.slice(0, 101).filter((_, i) => i !== 5);
    const summary = await run({ kind: 'provider-enrollment', file: csv(providers.header, rows), mode: 'snapshot' });
    expect(summary).toMatchObject({ read: 100, inserted: 0, updated: 0, endDated: 1 });
    const [after] = await app.database.db
      .select()
      .from(providerLocations)
      .where(eq(providerLocations.id, location!.id));
    expect(after).toMatchObject({ endDate: TODAY, status: 'inactive' });

    const validation = await post(REGISTRATION_ROUTES.validateProvider, provider);
    expect(validation.statusCode).toBe(400);
    expect(validation.json()).toEqual({ errorMessage: 'Provider_Not_Found' });
    const findAdmin = await post(FIND_ADMIN_PATH, { npi: ended.npi, ptan: ended.ptan, tin: ended.tin });
    expect(findAdmin.json()).toEqual({ errorMessage: 'Find_Admin_No_Match' });
    const dde = await post(DDE_SUBMIT_PATH, ddeForm(), cookie);
    expect(dde.statusCode).toBe(403);
    expect((await post(GET_EASI_PATH, {}, cookie)).json()).toEqual({ data: { locations: [] } });
    // The person keeps the account and the link.
    const links = await app.database.db.select().from(userLocations).where(eq(userLocations.userId, user.id));
    expect(links).toHaveLength(1);
    // …and are told the location ended on that day (docs/requirements/data-feeds.md#end-dated-locations).
    expect(await ownLocations()).toEqual([expect.objectContaining({ legalName: location!.legalName, endedOn: TODAY })]);

    // Listed again, the location is in force again.
    const relisted = csv(providers.header, providers.rows.slice(0, 101));
    await run({ kind: 'provider-enrollment', file: relisted, mode: 'snapshot', force: true });
    expect((await post(FIND_ADMIN_PATH, { npi: ended.npi, ptan: ended.ptan, tin: ended.tin })).statusCode).toBe(200);
  });

  it('a location whose END_DATE has come since the import is not validated', async () => {
    // Imported three days ago with an end date of today: still active then, ended now.
    const line = providers.rows[7]!.replace(/,$/, `,${TODAY}`);
    await run({ kind: 'provider-enrollment', file: csv(providers.header, [line]), today: '2026-11-20' });
    const [row] = await app.database.db
      .select()
      .from(providerLocations)
      .where(eq(providerLocations.npi, idsOf(line).npi));
    expect(row).toMatchObject({ status: 'active', endDate: TODAY });
    const ids = idsOf(providers.rows[7]!);
    const res = await post(REGISTRATION_ROUTES.validateProvider, { ...ids, passthroughResponse: true });
    expect(res.json()).toEqual({ errorMessage: 'Provider_Not_Found' });
    const tomorrow = providers.rows[7]!.replace(/,$/, ',2026-11-24');
    await run({ kind: 'provider-enrollment', file: csv(providers.header, [tomorrow]) });
    expect((await post(REGISTRATION_ROUTES.validateProvider, { ...ids, passthroughResponse: true })).statusCode).toBe(
      200,
    );
  });

  it('a snapshot that would end-date more than 5 % is refused, nothing written; forced, it lands', async () => {
    const before = await state();
    const path = csv(providers.header, providers.rows.slice(0, 90));
    const refused = await refusal(run({ kind: 'provider-enrollment', file: path, mode: 'snapshot' }));
    expect(refused.code).toBe('Too_Many_End_Dated');
    expect(refused.message).toMatch(/would end-date 11 of \d+ rows in force .* is the file complete\?/);
    expect(await state()).toBe(before);
    const dry = await run({ kind: 'provider-enrollment', file: path, mode: 'snapshot', force: true, dryRun: true });
    expect(dry).toMatchObject({ outcome: 'dry-run', endDated: 11 });
    expect(await state()).toBe(before);
    const forced = await run({ kind: 'provider-enrollment', file: path, mode: 'snapshot', force: true });
    expect(forced.endDated).toBe(11);
    await run({
      kind: 'provider-enrollment',
      file: csv(providers.header, providers.rows.slice(0, 101)),
      mode: 'snapshot',
      force: true,
    });
  });

  describe('a bad file is refused with a clear message and leaves the data as it was', () => {
    const good = () => providers.rows.slice(0, 3);
    const cases: [string, () => string, string, RegExp][] = [
      [
        'wrong header',
        () => csv(providers.header.replace('PTAN', 'PTAN_NO'), good()),
        'Wrong_Header',
        /^line 1: the header lacks PTAN/,
      ],
      [
        'wrong delimiter',
        () =>
          csv(
            providers.header.replaceAll(',', ';'),
            good().map((l) => l.replaceAll(',', ';')),
          ),
        'Wrong_Delimiter',
        /separated by commas/,
      ],
      [
        'invalid UTF-8',
        () =>
          file(Buffer.concat([Buffer.from(`${providers.header}\n${good()[0]}\n`), Buffer.from([0xc3, 0x28, 0x0a])])),
        'Invalid_Encoding',
        /not valid UTF-8/,
      ],
      [
        'a quoted newline',
        () => csv(providers.header, [good()[0]!.replace(/,(\d{5}),/, ',"12 Main\nStreet",'), ...good().slice(1)]),
        'Quoted_Newline',
        /^line \d+: a quoted value spans lines/,
      ],
      ['duplicate keys', () => csv(providers.header, [...good(), good()[1]!]), 'Duplicate_Keys', /on lines 3, 5/],
      [
        'a file cut mid-line',
        () => file(`${providers.header}\n${good().join('\n')}`.slice(0, -20)),
        'Cut_Mid_Line',
        /ends mid-line/,
      ],
      ['an empty file', () => file(''), 'Empty_File', /empty \(0 bytes\)/],
      ['a header and no rows', () => file(`${providers.header}\n`), 'Empty_File', /no rows/],
      ['an unclosed quote', () => csv(providers.header, [`"${good()[0]}`]), 'Malformed_CSV', /^line \d+:/],
    ];
    it.each(cases)('%s', async (_name, make, code, message) => {
      const before = await state();
      const err = await refusal(run({ kind: 'provider-enrollment', file: make(), mode: 'snapshot' }));
      expect(err.code).toBe(code);
      expect(err.message).toMatch(message);
      expect(await state()).toBe(before);
    });

    it('a snapshot of paid claims is refused: claims only ever add', async () => {
      const err = await refusal(
        run({ kind: 'paid-claims', file: csv(paid.header, paid.rows.slice(0, 3)), mode: 'snapshot' }),
      );
      expect(err.code).toBe('Mode_Not_Allowed');
    });
  });

  it('bad rows go to a 0600 reject report with TINs and MBIs masked; a good file still lands', async () => {
    // 1 bad row in 101: under 1 %.
    const rows = providers.rows.slice(0, 101);
    const badTin = rows[50]!.replace(`,${idsOf(rows[50]!).tin},`, ',12345678X,');
    const report = join(folder, 'rejects.csv');
    const summary = await run({
      kind: 'provider-enrollment',
      file: csv(providers.header, [...rows.slice(0, 50), badTin, ...rows.slice(51)]),
      rejectReport: report,
    });
    expect(summary).toMatchObject({ read: 101, rejected: 1, rejectReport: report });
    expect(statSync(report).mode & 0o777).toBe(0o600);
    expect(readFileSync(report, 'utf8')).toBe('LINE,COLUMN,CODE,VALUE\n52,TIN,Invalid_TIN,*****678X\n');

    const claimRows = paid.rows.filter((l) => rows.some((r) => l.includes(`,${idsOf(r).npi},${idsOf(r).ptan},`)));
    const mbi = claimRows[3]!.split(',')[4]!;
    const badMbi = claimRows[3]!.replace(`,${mbi},`, `,${mbi.slice(0, 10)}S,`);
    const claimReport = join(folder, 'claim-rejects.csv');
    const claimSummary = await run({
      kind: 'paid-claims',
      file: csv(paid.header, [...claimRows.slice(0, 3), badMbi, ...claimRows.slice(4)]),
      rejectReport: claimReport,
    });
    expect(claimSummary.rejected).toBe(1);
    const text = readFileSync(claimReport, 'utf8');
    expect(text).toBe(`LINE,COLUMN,CODE,VALUE\n5,PATIENT_MBI,Invalid_MBI,*******${mbi.slice(7, 10)}S\n`);
    expect(text).not.toContain(mbi.slice(0, 7));
  });

  it('past 1 % of rejected rows the whole file is refused and nothing is written', async () => {
    const before = await state();
    const rows = providers.rows.slice(100, 150).map((l, i) => (i < 2 ? l.replace(/^\d{10}/, '1234567890') : l));
    const err = await refusal(run({ kind: 'provider-enrollment', file: csv(providers.header, rows) }));
    expect(err.code).toBe('Too_Many_Rejects');
    expect(err.message).toMatch(/^2 of 50 rows were rejected \(4\.00 %, more than 1\.00 %\): nothing was imported/);
    expect(await state()).toBe(before);
  });

  it('a claim of an unknown location is rejected, not imported', async () => {
    const line = paid.rows[paid.rows.length - 1]!; // a location beyond the 101 imported
    const err = await refusal(run({ kind: 'paid-claims', file: csv(paid.header, [line]) }));
    expect(err.code).toBe('Too_Many_Rejects');
    expect(readFileSync(`${folder}/feed-${fileCounter}.csv.rejects.csv`, 'utf8')).toMatch(
      /^LINE,COLUMN,CODE,VALUE\n2,NPI,Unknown_Location,\d{10}\n$/,
    );
  });

  describe('X12 835 remittance advice', () => {
    const claimOf = (line: string): PaidClaim => {
      const [claimNumber, npi, ptan, lineOfBusiness, patientMbi, dateOfService, paidAmount, paidDate, checkNumber] =
        line.split(',') as [string, string, string, string, string, string, string, string, string];
      return { claimNumber, npi, ptan, lineOfBusiness, patientMbi, dateOfService, paidAmount, paidDate, checkNumber };
    };
    const claimsOfLocation = (row: string) =>
      paid.rows.filter((l) => l.includes(`,${idsOf(row).npi},${idsOf(row).ptan},`)).map(claimOf);
    const x12 = async (claimList: PaidClaim[]) => {
      const path = join(folder, `feed-${++fileCounter}.835`);
      await write835(path, claimList);
      return path;
    };

    it('its claim payments land with the facts the authority check asks for (TRN02, CLP07, NM1*QC, DTM*232, BPR16)', async () => {
      await run({ kind: 'provider-enrollment', file: csv(providers.header, [providers.rows[150]!]) });
      const expected = claimsOfLocation(providers.rows[150]!);
      expect(expected).toHaveLength(3);
      const summary = await run({ kind: 'paid-claims', file: await x12(expected) });
      expect(summary).toMatchObject({ read: 3, inserted: 3, updated: 0, rejected: 0 });
      const [run835] = await app.database.db.select().from(importRuns).where(eq(importRuns.id, summary.runId));
      expect(run835!.format).toBe('x12');
      for (const claim of expected) {
        const [row] = await app.database.db.select().from(claims).where(eq(claims.claimNumber, claim.claimNumber));
        expect(row).toMatchObject({
          patientMbi: claim.patientMbi,
          dateOfService: claim.dateOfService,
          paidAmount: claim.paidAmount,
          paidDate: claim.paidDate,
          checkNumber: claim.checkNumber,
        });
      }
      // The 835 of claims already loaded from CSV changes no row: the same facts.
      const again = await run({ kind: 'paid-claims', file: await x12(paid.rows.slice(0, 60).map(claimOf)) });
      expect(again).toMatchObject({ read: 60, inserted: 0, updated: 0 });
    });

    it('a read buffer that ends exactly on a segment terminator loses and doubles nothing (node-x12 1.7 did)', async () => {
      // 1,800 new claims of the loaded locations: an interchange of about 700 KB, three 256 KB read buffers.
      const claimList = Array.from({ length: 1800 }, (_, k) => ({
        ...claimOf(paid.rows[k % 60]!),
        claimNumber: `ZZ${String(k).padStart(11, '0')}`,
      }));
      const text = readFileSync(await x12(claimList), 'latin1');
      // Blank lines (skipped between segments) move bytes: the first buffer ends inside a segment, the second
      // exactly on a terminator…
      const buffer = 256 * 1024;
      const insert = (at: number, n: number) => (t: string) => `${t.slice(0, at)}${'\n'.repeat(n)}${t.slice(at)}`;
      let midSegment = buffer - 1;
      while (!/[A-Z0-9]/.test(text[midSegment]!)) midSegment--;
      const first = insert(text.indexOf('~', text.indexOf('\nGS*')) + 1, buffer - 1 - midSegment)(text);
      const lastByte = 2 * buffer - 1;
      // …the terminator before a claim's CLP, so the third buffer starts with one.
      const shift = lastByte - first.lastIndexOf('~\nCLP*', lastByte);
      const shifted = insert(first.indexOf('~', buffer + 1) + 1, shift)(first);
      expect(shifted.slice(lastByte, lastByte + 6)).toBe('~\nCLP*');
      expect(shifted[buffer - 1]).toMatch(/[A-Z0-9]/);
      const path = join(folder, `feed-${++fileCounter}.835`);
      writeFileSync(path, shifted, 'latin1');
      const summary = await run({ kind: 'paid-claims', file: path });
      expect(summary).toMatchObject({ read: 1800, inserted: 1800, updated: 0, rejected: 0 });
      const landed = await app.database.db
        .select({ claimNumber: claims.claimNumber })
        .from(claims)
        .where(like(claims.claimNumber, 'ZZ%'));
      expect(landed.map((c) => c.claimNumber).sort()).toEqual(claimList.map((c) => c.claimNumber));
    });

    it('a malformed interchange is refused with the segment position, nothing written', async () => {
      const before = await state();
      const good = await x12(claimsOfLocation(providers.rows[3]!));
      const text = readFileSync(good, 'utf8');
      const wrongCount = file(text.replace(/^SE\*(\d+)\*/m, (_m, n: string) => `SE*${Number(n) + 1}*`));
      const err = await refusal(run({ kind: 'paid-claims', file: wrongCount }));
      expect(err.code).toBe('Malformed_X12');
      expect(err.message).toMatch(/^segment \d+: SE01 says \d+ segments, the transaction has \d+$/);
      const cut = await refusal(run({ kind: 'paid-claims', file: file(text.slice(0, text.length - 40)) }));
      expect(cut.code).toBe('Malformed_X12');
      expect(cut.message).toMatch(/^segment \d+: the file ends inside .*cut short$/);
      const badIsa = await refusal(run({ kind: 'paid-claims', file: file(text.replace('*261122*', '*2611221*')) }));
      expect(badIsa.message).toMatch(/^segment 1: The ISA segment is not the correct length/);
      expect(await state()).toBe(before);
    });
  });

  it('the retention job purges claims older than the lookback window plus the margin, and no others', async () => {
    const [location] = await app.database.db.select().from(providerLocations).limit(1);
    // 2026-11-23 less 90 + 365 days is 2025-08-25.
    const old = { locationId: location!.id, patientMbi: '1EG4TE5MK73', paidAmount: '10.00', checkNumber: 'EFT1' };
    await app.database.db.insert(claims).values([
      { ...old, claimNumber: '6000000000001', dateOfService: '2025-08-01', paidDate: '2025-08-24' },
      { ...old, claimNumber: '6000000000002', dateOfService: '2025-08-01', paidDate: '2025-08-25' },
    ]);
    const before = await app.database.db.select({ n: sql<number>`count(*)::int` }).from(claims);
    expect(await app.jobs.runOnce(CLAIMS_RETENTION_JOB, { force: true })).toBe(true);
    const left = await app.database.db
      .select({ claimNumber: claims.claimNumber })
      .from(claims)
      .where(sql`${claims.claimNumber} like '600000000000%'`);
    expect(left).toEqual([{ claimNumber: '6000000000002' }]);
    const after = await app.database.db.select({ n: sql<number>`count(*)::int` }).from(claims);
    expect(after[0]!.n).toBe(before[0]!.n - 1);
  });

  it('metrics count the runs by kind and outcome and their rows, from import_runs', async () => {
    const text = await app.metrics.registry.metrics();
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const runs = await app.database.db.select().from(importRuns);
    const succeeded = runs.filter((r) => r.kind === 'provider-enrollment' && r.outcome === 'succeeded');
    const refused = runs.filter((r) => r.kind === 'provider-enrollment' && r.outcome === 'refused');
    expect(refused.length).toBeGreaterThan(0);
    expect(value('portal_feed_import_runs{kind="provider-enrollment",outcome="succeeded"}')).toBe(succeeded.length);
    expect(value('portal_feed_import_runs{kind="provider-enrollment",outcome="refused"}')).toBe(refused.length);
    expect(value('portal_feed_import_rows{kind="provider-enrollment",action="inserted"}')).toBe(
      succeeded.reduce((sum, r) => sum + r.rowsInserted, 0),
    );
    expect(value('portal_feed_import_rows{kind="provider-enrollment",action="end_dated"}')).toBe(
      succeeded.reduce((sum, r) => sum + r.rowsEndDated, 0),
    );
  });

  it('a load at least as large as the claims on file rebuilds the table: same indexes and keys, ids kept, changes applied; a small one merges', async () => {
    const db = app.database.db;
    const query = async <T>(text: ReturnType<typeof sql>) =>
      ((await db.execute(text)) as unknown as { rows: T[] }).rows;
    const catalog = async () =>
      JSON.stringify(
        await query(sql`select 'index' as kind, indexname as name, indexdef as def from pg_indexes
          where tablename = 'claims'
          union all select 'constraint', conname, pg_get_constraintdef(oid) from pg_constraint
          where conrelid = 'claims'::regclass order by 1, 2`),
      );
    const tableOid = async () => (await query<{ oid: number }>(sql`select 'claims'::regclass::oid as oid`))[0]!.oid;
    const onFile = await query<{ line: string; claim_number: string }>(sql`select c.claim_number,
        concat_ws(',', c.claim_number, p.npi, p.ptan, p.line_of_business, c.patient_mbi, c.date_of_service,
          c.paid_amount, c.paid_date, c.check_number) as line
      from claims c join provider_locations p on p.id = c.location_id order by c.claim_number`);
    const idsBefore = new Map((await db.select().from(claims)).map((c) => [c.claimNumber, c.id]));
    const [catalogBefore, oidBefore] = [await catalog(), await tableOid()];
    // Every claim on file (the first one paid anew) and as many new ones.
    const changed = onFile[0]!.line.split(',');
    changed[6] = changed[6] === '1.23' ? '4.56' : '1.23';
    const rows = [changed.join(','), ...onFile.slice(1).map((r) => r.line), ...onFile.map((r) => `R${r.line}`)];
    const summary = await run({ kind: 'paid-claims', file: csv(paid.header, rows) });
    expect(summary).toMatchObject({ read: rows.length, inserted: onFile.length, updated: 1, rejected: 0 });
    expect(await tableOid()).not.toBe(oidBefore);
    expect(await catalog()).toBe(catalogBefore);
    const after = await db.select().from(claims);
    expect(after).toHaveLength(onFile.length * 2);
    for (const c of after) if (idsBefore.has(c.claimNumber)) expect(c.id).toBe(idsBefore.get(c.claimNumber));
    const first = after.find((c) => c.claimNumber === onFile[0]!.claim_number)!;
    expect([first.paidAmount, first.importRunId]).toEqual([changed[6], summary.runId]);
    // The rebuilt table still holds its keys: a claim number on file twice is refused by the unique index.
    await expect(
      db.execute(sql`insert into claims (location_id, claim_number, patient_mbi, date_of_service, paid_amount,
        paid_date, check_number) select location_id, claim_number, patient_mbi, date_of_service, paid_amount,
        paid_date, check_number from claims limit 1`),
    ).rejects.toThrow();
    // A load smaller than the table merges into it in place.
    const oidRebuilt = await tableOid();
    const small = await run({ kind: 'paid-claims', file: csv(paid.header, [`S${onFile[1]!.line}`]) });
    expect(small).toMatchObject({ inserted: 1, updated: 0 });
    expect(await tableOid()).toBe(oidRebuilt);
    // A load of every claim on file anew (under new claim numbers): large enough to rebuild the table.
    const loadAllAnew = async (prefix: string) => {
      const all = await query<{
        line: string;
      }>(sql`select concat_ws(',', ${prefix}::text || c.claim_number, p.npi, p.ptan,
          p.line_of_business, c.patient_mbi, c.date_of_service, c.paid_amount, c.paid_date, c.check_number) as line
        from claims c join provider_locations p on p.id = c.location_id`);
      const big = await run({
        kind: 'paid-claims',
        file: csv(
          paid.header,
          all.map((r) => r.line),
        ),
      });
      expect(big).toMatchObject({ inserted: all.length, updated: 0 });
    };
    // A table the copy could not reproduce whole is merged in place, whatever the load: one with a trigger, a rule,
    // a policy (even with row security off), a grant, a dependant view or a foreign key pointing at it, or a sequence
    // of its own (a serial or identity column, whose default would still draw from the old table's sequence, dropped
    // with it, or from a new one starting again at 1).
    const guards = [
      {
        what: 'trigger',
        add: [
          sql`create function claims_probe() returns trigger language plpgsql as $$ begin return null; end $$`,
          sql`create trigger claims_probe after insert on claims for each statement execute function claims_probe()`,
        ],
        drop: [sql`drop trigger claims_probe on claims`, sql`drop function claims_probe()`],
      },
      {
        what: 'rule',
        add: [sql`create rule claims_probe as on delete to claims where false do instead nothing`],
        drop: [sql`drop rule claims_probe on claims`],
      },
      {
        what: 'policy',
        add: [sql`create policy claims_probe on claims using (true)`],
        drop: [sql`drop policy claims_probe on claims`],
      },
      { what: 'grant', add: [sql`grant select on claims to public`], drop: [sql`revoke select on claims from public`] },
      {
        what: 'view',
        add: [sql`create view claims_probe as select claim_number from claims`],
        drop: [sql`drop view claims_probe`],
      },
      {
        what: 'foreign key',
        add: [sql`create table claims_probe (claim_id uuid references claims (id))`],
        drop: [sql`drop table claims_probe`],
      },
      {
        what: 'serial',
        add: [sql`alter table claims add column claims_probe serial`],
        drop: [sql`alter table claims drop column claims_probe`],
      },
      {
        what: 'identity',
        add: [sql`alter table claims add column claims_probe bigint generated by default as identity`],
        drop: [sql`alter table claims drop column claims_probe`],
      },
    ];
    for (const [index, guard] of guards.entries()) {
      // Each load doubles the table; its rows go again after the check, so the next load is as large as the table.
      const prefix = 'ABCDEFGH'[index]!;
      for (const statement of guard.add) await db.execute(statement);
      try {
        await loadAllAnew(prefix);
        expect({ guard: guard.what, oid: await tableOid() }).toEqual({ guard: guard.what, oid: oidRebuilt });
      } finally {
        for (const statement of guard.drop) await db.execute(statement);
        await db.execute(sql`delete from claims where claim_number like ${`${prefix}%`}`);
      }
    }
  });

  it('two imports of one kind never run at once: the second is refused', async () => {
    const big = csv(paid.header, paid.rows.slice(0, 300));
    const other = csv(paid.header, paid.rows.slice(0, 299));
    const results = await Promise.allSettled([
      run({ kind: 'paid-claims', file: big, force: true }),
      run({ kind: 'paid-claims', file: other, force: true }),
    ]);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.map((r) => String((r as PromiseRejectedResult).reason))).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'Import_Running' });
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('data feeds: the demo is loaded through the import', () => {
  it('the committed sample files are the demo generator’s rows (npm run demo:feeds -w server rewrites them)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'demo-feeds-'));
    try {
      const files = await writeDemoFeeds(folder, DEMO_FEED_LOCATIONS);
      for (const [kind, path] of Object.entries(files))
        expect(readFileSync(path, 'utf8'), kind).toBe(readFileSync(demoFeedFile(kind as never), 'utf8'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a first start imports the first SEED_LOCATIONS of them: the generator’s locations, claims (dated to today) and enrollments', async () => {
    const { app } = await buildTestApp();
    try {
      const today = '2026-12-01';
      const seeded = await seedDemoThroughFeeds(app.database, { locations: 30, today });
      expect(seeded).toEqual({ seeded: true, locations: 30, claims: 90 });
      expect(await seedDemoThroughFeeds(app.database, { locations: 30, today })).toMatchObject({ seeded: false });
      const expected = [...generateDemoData({ locations: 30, today })];
      const db = app.database.db;
      const locations = await db.select().from(providerLocations);
      const pick = (l: { npi: string; ptan: string; tin: string; legalName: string; lineOfBusiness: string }) =>
        `${l.npi}|${l.ptan}|${l.tin}|${l.legalName}|${l.lineOfBusiness}`;
      expect(locations.map(pick).sort()).toEqual(
        expected
          .flatMap((b) => b.locations)
          .map(pick)
          .sort(),
      );
      const claimOf = (c: { claimNumber: string; patientMbi: string; dateOfService: string; paidDate: string }) =>
        `${c.claimNumber}|${c.patientMbi}|${c.dateOfService}|${c.paidDate}`;
      expect((await db.select().from(claims)).map(claimOf).sort()).toEqual(
        expected
          .flatMap((b) => b.claims)
          .map(claimOf)
          .sort(),
      );
      expect(await db.select().from(ediEnrollments)).toHaveLength(expected.flatMap((b) => b.ediEnrollments).length);
      const runs = await db.select().from(importRuns);
      expect(runs.map((r) => [r.kind, r.startedBy, r.outcome])).toEqual([
        ['provider-enrollment', 'demo', 'succeeded'],
        ['paid-claims', 'demo', 'succeeded'],
        ['edi-enrollments', 'demo', 'succeeded'],
      ]);
    } finally {
      await app.close();
    }
  });
});
