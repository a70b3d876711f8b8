// Data-feed import speed and memory (docs/requirements/data-feeds.md), each figure a ratio to a baseline measured in
// the same run on the same machine:
// 1. paid claims (CSV): the import's rows/s against a raw `COPY` of the same file into an unindexed table (the
//    machine's ceiling) — target ≥ 0.5;
// 2. the same claims as X12 835 remittance files — target ≥ 0.3 of that ceiling;
// 3. time per row and peak RSS of the import process at BENCH_CLAIMS and at 5 × BENCH_CLAIMS (with --linear):
//    within 1.2 × (linear, flat), RSS ≤ 300 MB. The raw COPY's own time per row grows between the sizes too (disk and
//    cache, not the import): the linearity verdict divides the import's 5× ÷ 1× per-row ratio by the raw COPY's,
//    measured in the same run (the machine's share), and prints the undivided ratio beside it.
// The import runs as its own process (`npm run import`), as an operator runs it; its peak RSS is read at its exit.
// 4. with --p99: provider-validation p99 (`POST /api/locations/validate/provider`, one request at a time through a
//    whole server on the same database) while the CSV import of BENCH_CLAIMS runs, against the same server idle just
//    before and after — target ≤ 2 ×, 0 5xx.
// 5. the floor: the raw COPY then one SQL insert into `claims`' own shape (keys, indexes, foreign key), no checks —
//    an import that checks nothing, as a ratio to the raw COPY; and the COPY into a logged table of typed columns
//    (no key, no index): the least it costs to keep the rows across a crash. With the import's own merge phase (its
//    summary) they show what landing rows in `claims` costs against the raw COPY, however they were checked.
// PGlite figures are printed too (not gated): BENCH_PGLITE_CLAIMS claims on an embedded database.
// Needs PostgreSQL: BENCH_DATABASE_URL (a database `<db>_feeds_<random>` is created on its server and dropped).
// Run: BENCH_DATABASE_URL=postgres://… npm run bench:import   (BENCH_CLAIMS=1000000 default; add -- --linear for 5×)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import pg from 'pg';
import { openPglite, openPostgres, type DedicatedConnection } from '../server/src/db/client';
import { demoFeedFile } from '../server/src/feeds/demo-feeds';
import { importFeed, setMergeSettings } from '../server/src/feeds/import';
import { rebuildTable } from '../server/src/feeds/rebuild';
import { write835, type PaidClaim } from '../server/src/feeds/x12-sample';
import { startBenchApp } from './support/bench-app';
import { summary } from './support/measure';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 1_000_000);
const PGLITE_CLAIMS = Number(process.env.BENCH_PGLITE_CLAIMS ?? 100_000);
const LINEAR = process.argv.includes('--linear');
const P99 = process.argv.includes('--p99');
const IDLE_SAMPLES = 300;
const adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) {
  console.error('bench:import needs PostgreSQL: set BENCH_DATABASE_URL=postgres://…');
  process.exit(2);
}
const CLI = fileURLToPath(new URL('../server/src/feeds/import-cli.ts', import.meta.url));
const RSS = fileURLToPath(new URL('./support/report-max-rss.mjs', import.meta.url));
const runDir = mkdtempSync(join(tmpdir(), 'portal-bench-import-'));

interface DemoLocation {
  npi: string;
  ptan: string;
  tin: string;
  jurisdiction: string;
  lob: string;
}

/** The demo's 1,000 locations, which the claims are spread over. */
async function demoLocations(): Promise<DemoLocation[]> {
  const [, ...lines] = readFileSync(demoFeedFile('provider-enrollment'), 'utf8').trimEnd().split('\n');
  // NPI is the first column; PTAN, TIN, JURISDICTION and LINE_OF_BUSINESS are 9th to 6th from the end (ORG_NAME
  // may hold commas).
  return lines.map((line) => {
    const cells = line.split(',');
    return { npi: cells[0]!, ptan: cells.at(-9)!, tin: cells.at(-8)!, jurisdiction: cells.at(-7)!, lob: cells.at(-6)! };
  });
}

function* claimsOf(count: number, locations: DemoLocation[], offset = 0): Generator<PaidClaim> {
  const d2 = (n: number) => String(n % 100).padStart(2, '0');
  for (let k = 0; k < count; k++) {
    const i = k + offset;
    const l = locations[i % locations.length]!;
    yield {
      claimNumber: `7${String(i).padStart(12, '0')}`,
      npi: l.npi,
      ptan: l.ptan,
      lineOfBusiness: l.lob,
      patientMbi: `${1 + (i % 9)}EG${i % 10}TE${Math.floor(i / 10) % 10}MK${d2(Math.floor(i / 100))}`,
      dateOfService: `2026-10-${d2(1 + (i % 28))}`,
      paidAmount: `${100 + (i % 900)}.${d2(i)}`,
      paidDate: `2026-11-${d2(1 + (i % 20))}`,
      checkNumber: `EFT${String(Math.floor(i / 3)).padStart(9, '0')}`,
    };
  }
}

async function writeCsv(path: string, claims: Iterable<PaidClaim>) {
  const out = createWriteStream(path);
  let buffer =
    'CLAIM_NUMBER,NPI,PTAN,LINE_OF_BUSINESS,PATIENT_MBI,DATE_OF_SERVICE,PAID_AMOUNT,PAID_DATE,CHECK_EFT_NUMBER\n';
  for (const c of claims) {
    buffer += `${c.claimNumber},${c.npi},${c.ptan},${c.lineOfBusiness},${c.patientMbi},${c.dateOfService},${c.paidAmount},${c.paidDate},${c.checkNumber}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await finished(out);
}

const RAW_COLUMNS =
  'claim text, npi text, ptan text, lob text, mbi text, dos text, amount text, paid text, check_number text';

/**
 * Runs `measure` on a connection of its own, with the table `name` (`columns`; unlogged unless said) created before
 * and dropped after, and a `copy` that streams `file` (the CSV, header first) into it.
 */
async function withScratchTable<T>(
  url: string,
  { name, columns, logged = false }: { name: string; columns: string; logged?: boolean },
  measure: (connection: DedicatedConnection, copy: (file: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  const database = openPostgres(url, 1);
  const connection = await database.dedicated();
  try {
    await connection.query(`drop table if exists ${name}`);
    await connection.query(`create ${logged ? '' : 'unlogged '}table ${name} (${columns})`);
    return await measure(connection, (file) =>
      pipeline(createReadStream(file), connection.copyFrom!(`copy ${name} from stdin with (format csv, header true)`)),
    );
  } finally {
    await connection.query(`drop table if exists ${name}`).catch(() => {});
    await connection.close();
    await database.close();
  }
}

const secondsSince = (started: number) => (performance.now() - started) / 1000;

/** Raw COPY of the CSV into an unindexed text table: the machine's ceiling for these bytes. */
function rawCopy(url: string, file: string): Promise<number> {
  return withScratchTable(url, { name: 'bench_raw_claims', columns: RAW_COLUMNS }, async (_connection, copy) => {
    const started = performance.now();
    await copy(file);
    return secondsSince(started);
  });
}

/**
 * The same COPY into a logged table of typed columns (the claim's own types, no key, no index): the least it costs
 * to keep these rows across a crash, before any lookup, check or index.
 */
function loggedCopy(url: string, file: string): Promise<number> {
  const columns = `claim varchar(23), npi varchar(10), ptan varchar(10), lob line_of_business, mbi varchar(11),
    dos date, amount numeric(12, 2), paid date, check_number varchar(20)`;
  return withScratchTable(url, { name: 'bench_logged_claims', columns, logged: true }, async (connection, copy) => {
    const started = performance.now();
    await connection.transaction(async (q) => {
      await q('set local synchronous_commit = off');
      await copy(file);
    });
    return secondsSince(started);
  });
}

/**
 * An import that checks nothing: the same file COPYed raw into an unlogged table, then landed in `claims`' own shape
 * — logged, with its keys, indexes and foreign key built the way the import's rebuild builds them — by one SQL insert
 * that casts the text and joins the locations. No JavaScript, no field rules, no reject report, no duplicate-key
 * check. Rolled back, so the import then finds the same empty table.
 */
function landedBySql(url: string, file: string): Promise<{ seconds: number; landSeconds: number }> {
  return withScratchTable(url, { name: 'bench_land_claims', columns: RAW_COLUMNS }, async (connection, copy) => {
    const rolledBack = new Error('measured');
    const started = performance.now();
    await copy(file);
    const copied = performance.now();
    let done = 0;
    await connection
      .transaction(async (q) => {
        await setMergeSettings(q);
        await rebuildTable(q, 'claims', async (next) => {
          await q('set local enable_nestloop = off');
          await q(
            `insert into ${next} (location_id, claim_number, patient_mbi, date_of_service, paid_amount, paid_date, check_number)
             select l.id, r.claim, r.mbi, r.dos::date, r.amount::numeric, r.paid::date, r.check_number
             from bench_land_claims r
             join provider_locations l on l.npi = r.npi and l.ptan = r.ptan and l.line_of_business = r.lob::line_of_business`,
          );
        });
        done = performance.now();
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    return { seconds: (done - started) / 1000, landSeconds: (done - copied) / 1000 };
  });
}

/** Runs `npm run import` as its own process; answers its seconds and peak RSS (MB). */
async function importProcess(url: string, file: string): Promise<{ seconds: number; rssMb: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', RSS, CLI, 'paid-claims', file, '--force'], {
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: runDir, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`the import exited ${code}: ${output}`);
  const rss = /MAX_RSS_KB (\d+)/.exec(output);
  return {
    seconds,
    rssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
    output: output.replace(/MAX_RSS_KB \d+\n?/, '').trim(),
  };
}

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `portal_bench_feeds_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const database = openPostgres(url.toString(), 2);
  await database.migrate();
  await importFeed(database, {
    kind: 'provider-enrollment',
    file: demoFeedFile('provider-enrollment'),
    startedBy: 'command',
  });
  await database.close();
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function measure(count: number, locations: Awaited<ReturnType<typeof demoLocations>>) {
  const csv = join(runDir, `claims-${count}.csv`);
  const x12 = join(runDir, `claims-${count}.835`);
  await writeCsv(csv, claimsOf(count, locations));
  await write835(x12, claimsOf(count, locations));
  const db = await freshDatabase();
  try {
    const raw = await rawCopy(db.url, csv);
    const floor = await landedBySql(db.url, csv);
    const logged = await loggedCopy(db.url, csv);
    const imported = await importProcess(db.url, csv);
    console.log(`  ${count} CSV (${imported.seconds.toFixed(1)} s, raw COPY ${raw.toFixed(1)} s): ${imported.output}`);
    // The 835 run inserts the same claims afresh: empty the table first.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('truncate claims');
    await client.end();
    const remit = await importProcess(db.url, x12);
    console.log(`  ${count} 835 (${remit.seconds.toFixed(1)} s): ${remit.output}`);
    const rawCsv = await rawCopy(db.url, csv); // the ceiling again, after: the machine's load moves
    const ceiling = count / Math.min(raw, rawCsv);
    return {
      count,
      bytes: statSync(csv).size,
      x12Bytes: statSync(x12).size,
      ceiling,
      floor,
      logged,
      csvRate: count / imported.seconds,
      x12Rate: count / remit.seconds,
      perRowUs: (imported.seconds / count) * 1e6,
      rawPerRowUs: (1 / ceiling) * 1e6,
      rssMb: Math.max(imported.rssMb, remit.rssMb),
      csvRss: imported.rssMb,
      x12Rss: remit.rssMb,
      summary: imported.output.split('\n').at(-1),
    };
  } finally {
    await db.drop();
    rmSync(csv, { force: true });
    rmSync(x12, { force: true });
  }
}

/**
 * Provider validation through a whole server on the import's database, one request at a time for a random demo
 * location: IDLE_SAMPLES before the import, as many as fit while `npm run import` loads `count` claims, IDLE_SAMPLES
 * after. Answers both p99s and the 5xx count.
 */
async function validationDuringImport(count: number, locations: DemoLocation[]) {
  const csv = join(runDir, `claims-p99-${count}.csv`);
  await writeCsv(csv, claimsOf(count, locations));
  const db = await freshDatabase();
  // One client would hit the per-client registration limit at once: raised for the measurement.
  const server = await startBenchApp(
    'import-p99',
    { REGISTRATION_ATTEMPTS_PER_MINUTE: '10000' },
    { databaseUrl: db.url },
  );
  let serverErrors = 0;
  const once = async (): Promise<number> => {
    const l = locations[Math.floor(Math.random() * locations.length)]!;
    const started = process.hrtime.bigint();
    const res = await fetch(`${server.base}${REGISTRATION_ROUTES.validateProvider}`, {
      method: 'POST',
      headers: server.headers,
      body: JSON.stringify({
        npi: l.npi,
        ptan: l.ptan,
        tin: l.tin,
        jurisdiction: l.jurisdiction,
        lineOfBusiness: l.lob,
        passthroughResponse: true,
      }),
    });
    await res.arrayBuffer();
    if (res.status >= 500) serverErrors++;
    else if (res.status !== 200) throw new Error(`provider validation answered ${res.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  try {
    const idle: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i++) idle.push(await once());
    const during: number[] = [];
    let done = false;
    const importing = importProcess(db.url, csv).finally(() => (done = true));
    while (!done) during.push(await once());
    const imported = await importing;
    for (let i = 0; i < IDLE_SAMPLES; i++) idle.push(await once());
    return {
      idle: summary(idle.sort((a, b) => a - b)),
      during: summary(during.sort((a, b) => a - b)),
      samples: during.length,
      serverErrors,
      seconds: imported.seconds,
    };
  } finally {
    await server.close();
    await db.drop();
    rmSync(csv, { force: true });
  }
}

/** PGlite (not gated): BENCH_PGLITE_CLAIMS claims on an embedded database. */
async function pgliteFigures(locations: DemoLocation[]) {
  const dir = join(runDir, 'pglite');
  const lite = await openPglite(dir);
  try {
    await lite.migrate();
    await importFeed(lite, {
      kind: 'provider-enrollment',
      file: demoFeedFile('provider-enrollment'),
      startedBy: 'command',
    });
    const csv = join(runDir, 'pglite-claims.csv');
    await writeCsv(csv, claimsOf(PGLITE_CLAIMS, locations));
    const imported = await importFeed(lite, { kind: 'paid-claims', file: csv, startedBy: 'command' });
    console.log(
      `PGlite: ${fmt(PGLITE_CLAIMS)} claims in ${imported.seconds.toFixed(1)} s = ${fmt(PGLITE_CLAIMS / imported.seconds)} rows/s (not gated)`,
    );
  } finally {
    await lite.close();
  }
}

try {
  const locations = await demoLocations();
  if (P99) {
    const r = await validationDuringImport(CLAIMS, locations);
    console.log(
      `provider validation during the import of ${fmt(CLAIMS)} claims (${r.seconds.toFixed(0)} s, ${fmt(r.samples)} requests): ` +
        `p99 ${r.during.p99.toFixed(1)} ms against ${r.idle.p99.toFixed(1)} ms idle = ${(r.during.p99 / r.idle.p99).toFixed(2)} × (target ≤ 2); ` +
        `p50 ${r.during.p50.toFixed(1)} / ${r.idle.p50.toFixed(1)} ms; 5xx ${r.serverErrors} (target 0)`,
    );
  }
  const sizes = P99 ? [] : LINEAR ? [CLAIMS, CLAIMS * 5] : [CLAIMS];
  const results = [];
  for (const size of sizes) {
    const r = await measure(size, locations);
    results.push(r);
    console.log(
      `${fmt(r.count)} claims (CSV ${(r.bytes / 2 ** 20).toFixed(0)} MB, 835 ${(r.x12Bytes / 2 ** 20).toFixed(0)} MB): ` +
        `raw COPY ${fmt(r.ceiling)} rows/s; import CSV ${fmt(r.csvRate)} rows/s = ${(r.csvRate / r.ceiling).toFixed(2)} × (target ≥ 0.5); ` +
        `835 ${fmt(r.x12Rate)} rows/s = ${(r.x12Rate / r.ceiling).toFixed(2)} × (target ≥ 0.3); ` +
        `${r.perRowUs.toFixed(1)} µs/row; peak RSS CSV ${r.csvRss.toFixed(0)} MB, 835 ${r.x12Rss.toFixed(0)} MB (target ≤ 300)`,
    );
    console.log(`  import summary: ${r.summary}`);
    const floorRate = r.count / r.floor.seconds;
    console.log(
      `  floor (the raw COPY, then one SQL insert into claims' shape — keys, indexes, foreign key — and no checks): ` +
        `${r.floor.seconds.toFixed(2)} s (landing ${r.floor.landSeconds.toFixed(2)} s) = ${(floorRate / r.ceiling).toFixed(2)} × the raw COPY, ` +
        `import CSV ${(r.csvRate / floorRate).toFixed(2)} × the floor, 835 ${(r.x12Rate / floorRate).toFixed(2)} ×`,
    );
    console.log(
      `  the same COPY into a logged table of typed columns, no key or index: ${r.logged.toFixed(2)} s = ` +
        `${(r.count / r.logged / r.ceiling).toFixed(2)} × the raw COPY (keeping the rows across a crash, nothing else)`,
    );
  }
  if (results.length === 2) {
    const [a, b] = results as [(typeof results)[0], (typeof results)[0]];
    const importRatio = b.perRowUs / a.perRowUs;
    const machineRatio = b.rawPerRowUs / a.rawPerRowUs;
    const linear = importRatio / machineRatio;
    console.log(
      `linear: time per row at ${fmt(b.count)} / at ${fmt(a.count)}: import ${importRatio.toFixed(2)} (raw), ` +
        `raw COPY ${machineRatio.toFixed(2)} (the machine's share: ${a.rawPerRowUs.toFixed(2)} → ${b.rawPerRowUs.toFixed(2)} µs/row); ` +
        `import ÷ raw COPY = ${linear.toFixed(2)} (target ≤ 1.2: ${linear <= 1.2 ? 'met' : 'not met'}; undivided ${importRatio <= 1.2 ? 'met' : 'not met'}); ` +
        `flat: peak RSS ${(b.rssMb / a.rssMb).toFixed(2)} × (target ≤ 1.2), ${b.rssMb.toFixed(0)} MB (target ≤ 300)`,
    );
  }

  // PGlite (not gated): the demo must stay quick.
  if (!P99) await pgliteFigures(locations);
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
