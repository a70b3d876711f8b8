// Administrator registration (docs/decisions/0025), two figures:
// 1. Provider validation p99 (`POST /api/locations/validate/provider`) with 1,000,000 seeded locations against the
//    same request with 1,000 — target ≤ 2× (an index probe, not a scan). Requests go one after another, each for a
//    random seeded location, through the whole server (rate limit counter, lookup, administrator check, audit row).
// 2. Health-check p99 (`GET /healthz` at a fixed rate, from a separate process) while 20 registrations run at once,
//    each hashing a password and three answers with argon2id — target ≤ 50 ms (hashing stays off the event loop).
// Database: PostgreSQL when BENCH_DATABASE_URL is set (it is emptied and re-seeded), else embedded PGlite.
// Seeding 1,000,000 locations takes minutes (PostgreSQL generates them: generate_series).
// Run: npm run bench:registration   (BENCH_LOCATIONS=200000 for a quicker, smaller run)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';
import { seedDemoData } from '../server/src/db/demo-data';
import { rowsOf } from '../server/src/platform/db-executor';

const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_LOCATIONS ?? 1_000_000);
const SAMPLES = 1_500;
const WARM_UP = 200;
const CONCURRENT_REGISTRATIONS = 20;
const HEALTH_RATE = 50; // requests/s
const HEALTH_DURATION_S = 8;
const autocannonCli = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-registration-'));
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
  ENCRYPTION_KEY: '0'.repeat(64),
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
  WEB_DIST_DIR: join(dataDir, 'no-web-build'),
  SEED_DEMO_DATA: 'false',
  DATABASE_URL: process.env.BENCH_DATABASE_URL,
  PUBLIC_URL: 'http://localhost:3000',
  TRUST_PROXY: 'false',
  // One load generator would hit the per-client limits at once: raised for the measurement.
  REGISTRATION_ATTEMPTS_PER_MINUTE: '10000',
  AUTHORITY_CLIENT_MAX_FAILURES: '1000',
});
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir, poolMax: 10 });
await database.migrate();
const app = await buildApp({ config, database });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const headers = { 'x-portal-request': '1', origin: 'http://localhost:3000', 'content-type': 'application/json' };
const { db } = database;

interface Target {
  id: string;
  npi: string;
  ptan: string;
  tin: string;
  jurisdiction: string;
  line_of_business: string;
}

async function seed(locations: number) {
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

/** Random locations from the whole table: the first id at or after a random uuid (uniform enough for this). */
async function randomTargets(count: number): Promise<Target[]> {
  const targets: Target[] = [];
  while (targets.length < count) {
    const [row] = rowsOf<Target>(
      await db.execute(sql`
        select id, npi, ptan, tin, jurisdiction, line_of_business from provider_locations
        where id >= md5(random()::text)::uuid order by id limit 1`),
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function providerLatency(label: string): Promise<{ p50: number; p99: number }> {
  const targets = await randomTargets(300);
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    const target = targets[i % targets.length]!;
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}${REGISTRATION_ROUTES.validateProvider}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(providerBody(target)),
    });
    await res.arrayBuffer();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 200) throw new Error(`${label}: provider validation answered ${res.status}`);
    if (i >= WARM_UP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const result = { p50: percentile(times, 50), p99: percentile(times, 99) };
  console.log(
    `  ${label}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (${SAMPLES} requests, one at a time)`,
  );
  return result;
}

async function post(url: string, body: unknown) {
  const res = await fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as { data?: Record<string, string> } };
}

/** A registration token for a free location: provider step, then its first recent claim's number. */
async function registrationToken(target: Target): Promise<string | undefined> {
  const provider = await post(REGISTRATION_ROUTES.validateProvider, providerBody(target));
  if (provider.status !== 200) return undefined;
  const [claim] = rowsOf<{ claim_number: string }>(
    await db.execute(sql`
      select claim_number from claims where location_id = ${target.id} and paid_date >= current_date - 80
      order by paid_date desc limit 1`),
  );
  if (!claim) return undefined;
  const authority = await post(REGISTRATION_ROUTES.validateAuthority, {
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

interface AutocannonResult {
  latency: { p99: number; p50: number; max: number };
  requests: { total: number };
  non2xx: number;
  errors: number;
}

async function healthDuringRegistrations() {
  // Distinct locations: a second token for one location voids the first.
  const targets = [...new Map((await randomTargets(400)).map((t) => [t.id, t])).values()];
  const tokens: string[] = [];
  for (const target of targets) {
    const token = await registrationToken(target);
    if (token) tokens.push(token);
    if (tokens.length >= 200) break;
  }
  const idleDelay = monitorEventLoopDelay({ resolution: 5 });
  idleDelay.enable();
  const idle = await autocannon();
  idleDelay.disable();
  let done = 0;
  let failed = 0;
  let running = true;
  // The event loop's own delay, to tell a blocked loop from a busy machine.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const health = autocannon().finally(() => (running = false));
  const workers = Array.from({ length: CONCURRENT_REGISTRATIONS }, async () => {
    while (running && tokens.length) {
      const res = await post(REGISTRATION_ROUTES.selfRegistration, registrationBody(tokens.pop()!));
      if (res.status === 201) done++;
      else failed++;
    }
  });
  const loaded = await health;
  await Promise.all(workers);
  loopDelay.disable();
  console.log(
    `  GET /healthz p99 at ${HEALTH_RATE} req/s: idle ${idle.latency.p99} ms; during ${CONCURRENT_REGISTRATIONS} concurrent registrations ${loaded.latency.p99} ms (max ${loaded.latency.max} ms) — target ≤ 50 ms`,
  );
  console.log(
    `  event-loop delay idle: p99 ${(idleDelay.percentile(99) / 1e6).toFixed(1)} ms; during the registrations: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
  );
  console.log(
    `  registrations completed meanwhile: ${done} (${(done / HEALTH_DURATION_S).toFixed(1)}/s, ${failed} refused)${tokens.length ? '' : ' — ran out of prepared tokens before the end'}`,
  );
}

async function autocannon(): Promise<AutocannonResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [autocannonCli, '--json', '-c', '2', '-R', String(HEALTH_RATE), '-d', String(HEALTH_DURATION_S), `${base}/healthz`],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as AutocannonResult;
  if (result.non2xx || result.errors) throw new Error(`healthz: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

try {
  // Accounts of an earlier run on the same PostgreSQL database would hold their usernames.
  await db.execute(sql`delete from users where username like 'bench.registrant%'`);
  console.log(
    `registration benchmark; ${database.kind}; argon2id m=${config.passwords.hashMemoryKib} KiB t=${config.passwords.hashIterations}; ${availableParallelism()} cores; UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
  );
  console.log(`provider validation with ${SMALL.toLocaleString('en-US')} locations`);
  await seed(SMALL);
  const small = await providerLatency(`${SMALL.toLocaleString('en-US')} locations`);
  console.log(`provider validation with ${LARGE.toLocaleString('en-US')} locations`);
  await seed(LARGE);
  const large = await providerLatency(`${LARGE.toLocaleString('en-US')} locations`);
  console.log(
    `  p99 ratio ${LARGE.toLocaleString('en-US')} / ${SMALL.toLocaleString('en-US')}: ${(large.p99 / small.p99).toFixed(2)}× — target ≤ 2×`,
  );
  console.log('health check during registrations');
  await healthDuringRegistrations();
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
