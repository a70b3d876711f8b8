// Administrator registration (docs/decisions/0025), two figures, each a comparison made in the same run at the same time
// (this machine's load changes by the minute; figures measured minutes apart compare the load, not the code):
// 1. Provider validation p99 (`POST /api/locations/validate/provider`) with 1,000,000 seeded locations against the
//    same request with 1,000 — target ≤ 2× (an index probe, not a scan). Two whole servers (buildApp twice), each on
//    its own database, one seeded with 1,000 locations and one with BENCH_LOCATIONS; requests alternate between them,
//    one at a time, each for a random seeded location, through the whole server (rate limit counter, lookup,
//    administrator check, audit row). Five rounds; the median of the rounds' p99 ratios is the figure.
// 2. Health-check p99 (`GET /healthz` at a fixed rate, from a separate process) while 20 registrations run at once,
//    each hashing a password and three answers with argon2id — target ≤ 50 ms (hashing stays off the event loop).
//    Windows with and without registrations alternate, so the idle figure beside it saw the same machine load.
// Database: PostgreSQL when BENCH_DATABASE_URL is set (two databases `<db>_registration_small` and `_large` are
// created on its server and dropped at the end), else embedded PGlite (two data folders).
// Seeding 1,000,000 locations takes about two minutes on PostgreSQL (generate_series).
// Run: npm run bench:registration   (BENCH_LOCATIONS=200000 for a quicker, smaller run; PASSWORD_HASH_CONCURRENCY=1
//      or PASSWORD_HASH_NICE=0 to measure the hashing limit or the hashing threads' priority)
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../server/src/db/client';
import { seedDemoData } from '../server/src/db/demo-data';
import { rowsOf } from '../server/src/platform/db-executor';
import { startBenchApp, type BenchApp } from './support/bench-app';
import { autocannon, loadAverage, median, summary, withLoopDelay } from './support/measure';

const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_LOCATIONS ?? 1_000_000);
const PROVIDER_ROUNDS = 5;
const SAMPLES_PER_ROUND = 400; // per instance
const WARM_UP = 100;
const CONCURRENT_REGISTRATIONS = 20;
const HEALTH_RATE = 50; // requests/s
const HEALTH_ROUNDS = 3;
const HEALTH_DURATION_S = 4; // per window

const runDir = mkdtempSync(join(tmpdir(), 'portal-bench-registration-'));
const adminUrl = process.env.BENCH_DATABASE_URL;

/** On PostgreSQL, one database per instance on BENCH_DATABASE_URL's server: `<db>_registration_small` and `_large` (BENCH_DATABASE_URL's own database is left alone). */
function databaseUrlFor(suffix: string): string | undefined {
  if (!adminUrl) return undefined;
  const url = new URL(adminUrl);
  url.pathname = `/${(url.pathname.slice(1) || 'postgres') + '_' + suffix}`;
  return url.toString();
}
const databaseName = (url: string) => new URL(url).pathname.slice(1);
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Runs `statements` on BENCH_DATABASE_URL's own database (CREATE/DROP DATABASE cannot run inside the target). */
async function onAdminDatabase(statements: string[]) {
  const admin = await openDatabase({ databaseUrl: adminUrl, dataDir: runDir, poolMax: 1 });
  try {
    for (const statement of statements) await admin.db.execute(sql.raw(statement));
  } finally {
    await admin.close();
  }
}

interface Instance extends BenchApp {
  label: string;
  locations: number;
  db: Db;
}

/** One whole server (its own buildApp) on its own fresh database. */
async function startInstance(suffix: string, locations: number): Promise<Instance> {
  const databaseUrl = databaseUrlFor(suffix);
  if (databaseUrl) {
    const name = quoted(databaseName(databaseUrl));
    await onAdminDatabase([`drop database if exists ${name} with (force)`, `create database ${name}`]);
  }
  const bench = await startBenchApp(
    `registration-${suffix}`,
    // One load generator would hit the per-client limits at once: raised for the measurement.
    { REGISTRATION_ATTEMPTS_PER_MINUTE: '10000', AUTHORITY_CLIENT_MAX_FAILURES: '1000' },
    // Without BENCH_DATABASE_URL each instance has its own PGlite in its own data folder.
    { databaseUrl: databaseUrl ?? null },
  );
  const instance = {
    ...bench,
    label: `${locations.toLocaleString('en-US')} locations`,
    locations,
    db: bench.database.db,
  };
  await seed(instance);
  return instance;
}

const headers = { 'x-portal-request': '1', origin: 'http://localhost:3000', 'content-type': 'application/json' };

interface Target {
  id: string;
  npi: string;
  ptan: string;
  tin: string;
  jurisdiction: string;
  line_of_business: string;
}

async function seed(instance: Pick<Instance, 'db' | 'label' | 'locations'>) {
  const { db, locations } = instance;
  // Emptied with TRUNCATE, not the seed's DELETE: a rerun on a kept database leaves no dead index entries.
  await db.execute(sql`truncate provider_locations, claims cascade`);
  const started = Date.now();
  let last = 0;
  await seedDemoData(db, {
    locations,
    reset: true,
    onProgress(done) {
      if (Date.now() - last > 5000 || done === locations) {
        last = Date.now();
        process.stdout.write(`\r  seeding: ${done.toLocaleString('en-US')} of ${locations.toLocaleString('en-US')}`);
      }
    },
  });
  await db.execute(sql`analyze provider_locations`);
  await db.execute(sql`analyze claims`);
  console.log(` — ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * Random locations from the whole table: the first id at or after a random uuid (uniform enough for this);
 * `withRecentClaim`: only locations with a claim paid in the last 80 days (the authority step's fact).
 */
async function randomTargets(db: Db, count: number, withRecentClaim = false): Promise<Target[]> {
  const targets: Target[] = [];
  while (targets.length < count) {
    const [row] = rowsOf<Target>(
      await db.execute(
        withRecentClaim
          ? sql`
            select l.id, l.npi, l.ptan, l.tin, l.jurisdiction, l.line_of_business
            from claims c join provider_locations l on l.id = c.location_id
            where c.location_id >= md5(random()::text)::uuid and c.paid_date >= current_date - 80
            order by c.location_id limit 1`
          : sql`
            select id, npi, ptan, tin, jurisdiction, line_of_business from provider_locations
            where id >= md5(random()::text)::uuid order by id limit 1`,
      ),
    );
    if (row) targets.push(row);
  }
  return targets;
}

const providerBody = (t: Target) => ({
  npi: t.npi,
  ptan: t.ptan,
  tin: t.tin,
  jurisdiction: t.jurisdiction,
  lineOfBusiness: t.line_of_business,
  passthroughResponse: true,
});

async function timedProviderValidation(instance: Instance, target: Target): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(`${instance.base}${REGISTRATION_ROUTES.validateProvider}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(providerBody(target)),
  });
  await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`${instance.label}: provider validation answered ${res.status}`);
  return ms;
}

/**
 * Both instances measured in the same rounds, requests alternating between them (which one goes first alternates
 * too), so load that changes on the shared machine falls on both alike; the ratio is taken per round.
 */
async function providerLatencyInterleaved(small: Instance, large: Instance) {
  const instances = [small, large];
  const targets = await Promise.all(instances.map((instance) => randomTargets(instance.db, 300)));
  for (let i = 0; i < WARM_UP; i++)
    for (const [k, instance] of instances.entries()) await timedProviderValidation(instance, targets[k]![i % 300]!);
  const all: number[][] = [[], []];
  const ratios: number[] = [];
  for (let round = 1; round <= PROVIDER_ROUNDS; round++) {
    const times: number[][] = [[], []];
    for (let i = 0; i < SAMPLES_PER_ROUND; i++) {
      const order = i % 2 ? [1, 0] : [0, 1];
      for (const k of order)
        times[k]!.push(await timedProviderValidation(instances[k]!, targets[k]![(round * 7 + i) % 300]!));
    }
    const [s, l] = times.map(summary) as [ReturnType<typeof summary>, ReturnType<typeof summary>];
    ratios.push(l.p99 / s.p99);
    all[0]!.push(...times[0]!);
    all[1]!.push(...times[1]!);
    console.log(
      `  round ${round}: ${small.label} p50 ${s.p50.toFixed(2)} / p99 ${s.p99.toFixed(2)} ms; ${large.label} p50 ${l.p50.toFixed(2)} / p99 ${l.p99.toFixed(2)} ms; p99 ratio ${(l.p99 / s.p99).toFixed(2)}× (${loadAverage()})`,
    );
  }
  const [s, l] = all.map(summary) as [ReturnType<typeof summary>, ReturnType<typeof summary>];
  console.log(
    `  all rounds (${PROVIDER_ROUNDS * SAMPLES_PER_ROUND} requests each): ${small.label} p50 ${s.p50.toFixed(2)} / p99 ${s.p99.toFixed(2)} ms; ${large.label} p50 ${l.p50.toFixed(2)} / p99 ${l.p99.toFixed(2)} ms; p99 ratio ${(l.p99 / s.p99).toFixed(2)}×`,
  );
  console.log(
    `  median of the ${PROVIDER_ROUNDS} rounds' p99 ratios ${large.label} / ${small.label}: ${median(ratios).toFixed(2)}× — target ≤ 2×`,
  );
}

async function post(instance: Instance, url: string, body: unknown) {
  const res = await fetch(`${instance.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as { data?: Record<string, string> } };
}

/** A registration token for a free location: provider step, then its first recent claim's number. */
async function registrationToken(instance: Instance, target: Target): Promise<string | undefined> {
  const provider = await post(instance, REGISTRATION_ROUTES.validateProvider, providerBody(target));
  if (provider.status !== 200) return undefined;
  const [claim] = rowsOf<{ claim_number: string }>(
    await instance.db.execute(sql`
      select claim_number from claims where location_id = ${target.id} and paid_date >= current_date - 80
      order by paid_date desc limit 1`),
  );
  if (!claim) return undefined;
  const authority = await post(instance, REGISTRATION_ROUTES.validateAuthority, {
    npi: target.npi,
    validationToken: provider.json.data!.validationToken,
    financialLookupSelector: 'claim',
    claimNumber: claim.claim_number,
  });
  return authority.status === 200 ? authority.json.data!.registrationToken : undefined;
}

let serial = 0;
function registrationBody(token: string) {
  serial++;
  return {
    registrationToken: token,
    firstName: 'Bench',
    lastName: 'Admin',
    email: `bench${serial}@example.org`,
    emailConfirmation: `bench${serial}@example.org`,
    phone: '4105550123',
    dob: '1980-01-01',
    username: `bench.registrant${serial}`,
    password: 'violet tugboat ember prairie lantern',
    securityQuestions: [
      { questionId: 'first-car', answer: 'blue' },
      { questionId: 'first-school', answer: 'lincoln' },
      { questionId: 'childhood-nickname', answer: 'bee' },
    ],
  };
}

/**
 * Health-check p99 in alternating windows, without and with 20 registrations running, so both see the same machine
 * load; the event loop's own delay in each window tells a starved loop from a slow machine.
 */
async function healthDuringRegistrations(instance: Instance) {
  // Distinct locations: a second token for one location voids the first.
  const targets = [...new Map((await randomTargets(instance.db, 1200, true)).map((t) => [t.id, t])).values()];
  const tokens: string[] = [];
  for (const target of targets) {
    const token = await registrationToken(instance, target);
    if (token) tokens.push(token);
    if (tokens.length >= 800) break;
  }
  const windows = { idle: [] as number[], loaded: [] as number[] };
  const loopDelays = { idle: [] as number[], loaded: [] as number[] };
  let done = 0;
  let failed = 0;
  for (let round = 1; round <= HEALTH_ROUNDS; round++) {
    for (const kind of ['idle', 'loaded'] as const) {
      const { result, loopDelayP99Ms } = await withLoopDelay(async () => {
        let running = true;
        const health = healthCheckWindow(instance).finally(() => (running = false));
        const workers =
          kind === 'idle'
            ? []
            : Array.from({ length: CONCURRENT_REGISTRATIONS }, async () => {
                while (running && tokens.length) {
                  const res = await post(
                    instance,
                    REGISTRATION_ROUTES.selfRegistration,
                    registrationBody(tokens.pop()!),
                  );
                  if (res.status === 201) done++;
                  else failed++;
                }
              });
        await Promise.all(workers);
        return health;
      });
      if (kind === 'loaded' && !tokens.length) console.log('  (ran out of prepared tokens in this window)');
      windows[kind].push(result.latency.p99);
      loopDelays[kind].push(loopDelayP99Ms);
      console.log(
        `  round ${round}, ${kind === 'idle' ? 'no registrations' : `${CONCURRENT_REGISTRATIONS} concurrent registrations`}: GET /healthz p99 ${result.latency.p99} ms (max ${result.latency.max} ms); event-loop delay p99 ${loopDelayP99Ms.toFixed(1)} ms (${loadAverage()})`,
      );
    }
  }
  console.log(
    `  GET /healthz p99 at ${HEALTH_RATE} req/s, median of ${HEALTH_ROUNDS} windows each: no registrations ${median(windows.idle)} ms; during ${CONCURRENT_REGISTRATIONS} concurrent registrations ${median(windows.loaded)} ms — target ≤ 50 ms`,
  );
  console.log(
    `  event-loop delay p99, median: no registrations ${median(loopDelays.idle).toFixed(1)} ms; during the registrations ${median(loopDelays.loaded).toFixed(1)} ms`,
  );
  console.log(
    `  registrations completed: ${done} in ${HEALTH_ROUNDS * HEALTH_DURATION_S} s (${(done / (HEALTH_ROUNDS * HEALTH_DURATION_S)).toFixed(1)}/s, ${failed} refused)${tokens.length ? '' : ' — ran out of prepared tokens'}`,
  );
}

const healthCheckWindow = (instance: Instance) =>
  autocannon(['-c', '2', '-R', String(HEALTH_RATE), '-d', String(HEALTH_DURATION_S), `${instance.base}/healthz`]);

const instances: Instance[] = [];
try {
  console.log(`seeding two instances, each its own server and database`);
  const small = await startInstance('registration_small', SMALL);
  instances.push(small);
  const large = await startInstance('registration_large', LARGE);
  instances.push(large);
  console.log(
    `registration benchmark; ${small.database.kind}; argon2id m=${small.config.passwords.hashMemoryKib} KiB t=${small.config.passwords.hashIterations}; ${availableParallelism()} cores; PASSWORD_HASH_CONCURRENCY=${small.config.passwords.hashConcurrency}; PASSWORD_HASH_NICE=${small.config.passwords.hashNice}`,
  );
  console.log(`provider validation, ${small.label} and ${large.label} interleaved, one request at a time`);
  await providerLatencyInterleaved(small, large);
  console.log('health check with and without registrations, alternating windows');
  await healthDuringRegistrations(large);
} finally {
  for (const instance of instances) await instance.close();
  if (adminUrl)
    await onAdminDatabase(
      ['registration_small', 'registration_large'].map(
        (suffix) => `drop database if exists ${quoted(databaseName(databaseUrlFor(suffix)!))} with (force)`,
      ),
    );
  rmSync(runDir, { recursive: true, force: true });
}
