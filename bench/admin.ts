// The administrator's console at size (docs/requirements/staff-accounts.md#api-and-data): p99 of the people search
// (`GET /api/admin/people?q=…`, and without `q`) and of the requests list (`GET /api/admin/requests`) of one
// administrator, with 100,000 users and 1,000,000 person–location links seeded, against the same calls with 1,000
// users and 10,000 links — target ≤ 2× (indexes, not scans), measured in the same run. Two whole servers (buildApp
// twice), each on its own database; both are seeded alike at their size: as many locations as users, ten links per
// user, so each location has ten people and one pending request whatever the size, and the measured administrator
// administers three locations (thirty people, three requests) in both. Requests alternate between the two servers,
// one at a time, through the whole server (session, guard, scoped SQL, serialisation). Five rounds; the median of the
// rounds' p99 ratios is the figure, per call.
// Database: PostgreSQL when BENCH_DATABASE_URL is set (databases `<db>_admin_small` and `_admin_large` are created on
// its server and dropped at the end), else embedded PGlite (two data folders; seeding the large one is slow there).
// Run: npm run bench:admin   (BENCH_ADMIN_USERS=20000 for a quicker, smaller run)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_COOKIE } from '@portal/contracts/auth';
import { ADMIN_ROUTES } from '@portal/contracts/paths';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, type Db } from '../server/src/db/client';
import { rowsOf } from '../server/src/platform/db-executor';
import { createSession } from '../server/src/identity/sessions/store';
import { startBenchApp, type BenchApp } from './support/bench-app';
import { loadAverage, median, summary } from './support/measure';

const SMALL_USERS = 1_000;
const LARGE_USERS = Number(process.env.BENCH_ADMIN_USERS ?? 100_000);
const LINKS_PER_USER = 10;
const ROUNDS = 5;
const SAMPLES_PER_ROUND = 200; // per instance and call
const WARM_UP = 50;
const TARGET = 2;

const runDir = mkdtempSync(join(tmpdir(), 'portal-bench-admin-'));
const adminUrl = process.env.BENCH_DATABASE_URL;

function databaseUrlFor(suffix: string): string | undefined {
  if (!adminUrl) return undefined;
  const url = new URL(adminUrl);
  url.pathname = `/${(url.pathname.slice(1) || 'postgres') + '_' + suffix}`;
  return url.toString();
}
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

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
  db: Db;
  cookie: string;
  suffix: string;
}

/** One seeding statement, without the pool's statement timeout (10 s). */
async function unlimited(db: Db, statement: SQL) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(statement);
  });
}

/**
 * `users` people `bench.user.<n>` (n from 1), as many locations, ten links per person: person n is linked to the
 * locations (n - 1 + j·users/10) mod users for j = 0…9, as administrator for j = 0 (each location has one), as user
 * otherwise. Location l has one pending request, from person ((l + users/2) mod users) + 1. Person 1, the measured
 * administrator, also administers locations 1 and 2 (other people than its location 0's).
 */
async function seed(db: Db, users: number) {
  const stride = users / LINKS_PER_USER;
  const started = Date.now();
  await unlimited(db, sql`truncate users, provider_locations cascade`);
  await unlimited(
    db,
    sql`
    insert into provider_locations (id, npi, ptan, tin, legal_name, jurisdiction, line_of_business, state,
      address_line1, city, zip)
    select md5('location' || l)::uuid, lpad(l::text, 10, '0'), 'P' || l, '123456789', 'Clinic ' || l, 'J5', 'B', 'IA',
      '1 Main St', 'Des Moines', '50309'
    from generate_series(0, ${users - 1}) as l`,
  );
  await unlimited(
    db,
    sql`
    insert into users (id, username, email, first_name, last_name, dob, password_hash, status, mfa_enrolled_at)
    select md5('user' || n)::uuid, 'bench.user.' || n, 'bench.user.' || n || '@example.com', 'First' || n,
      'Last' || (n % 997), '1980-01-01', 'not-a-hash', 'active', now()
    from generate_series(1, ${users}) as n`,
  );
  // In slices of 10,000 people (100,000 links), each its own statement: the pool's statement timeout is lifted for them.
  for (let from = 1; from <= users; from += 10_000) {
    const to = Math.min(users, from + 9_999);
    await unlimited(
      db,
      sql`
        insert into user_locations (user_id, location_id, role)
        select md5('user' || n)::uuid, md5('location' || ((n - 1 + j * ${stride}) % ${users}))::uuid,
          (case when j = 0 then 'administrator' else 'user' end)::location_role
        from generate_series(${from}::int, ${to}::int) as n, generate_series(0, ${LINKS_PER_USER - 1}) as j`,
    );
    process.stdout.write(`\r  links: ${(to * LINKS_PER_USER).toLocaleString('en-US')}`);
  }
  // The measured administrator's second and third locations: groups of people other than its first's.
  await unlimited(
    db,
    sql`
    insert into user_locations (user_id, location_id, role)
    select md5('user1')::uuid, md5('location' || l)::uuid, 'administrator' from generate_series(1, 2) as l`,
  );
  await unlimited(
    db,
    sql`
    insert into access_requests (user_id, location_id)
    select md5('user' || (((l + ${users / 2}) % ${users}) + 1))::uuid, md5('location' || l)::uuid
    from generate_series(0, ${users - 1}) as l`,
  );
  for (const table of ['users', 'provider_locations', 'user_locations', 'access_requests'])
    await unlimited(db, sql.raw(`analyze ${table}`));
  const [counts] = rowsOf<{ users: number; links: number }>(
    await db.execute(sql`select (select count(*)::int from users) as users,
      (select count(*)::int from user_locations) as links`),
  );
  console.log(
    `  seeded ${counts!.users.toLocaleString('en-US')} users, ${counts!.links.toLocaleString('en-US')} links in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

async function startInstance(suffix: string, users: number): Promise<Instance> {
  const databaseUrl = databaseUrlFor(suffix);
  if (databaseUrl) {
    const name = quoted(new URL(databaseUrl).pathname.slice(1));
    await onAdminDatabase([`drop database if exists ${name} with (force)`, `create database ${name}`]);
  }
  const bench = await startBenchApp(`admin-${suffix}`, {}, { databaseUrl: databaseUrl ?? null });
  const db = bench.database.db;
  await seed(db, users);
  return { ...bench, db, cookie: '', suffix, label: `${users.toLocaleString('en-US')} users` };
}

/** The measured administrator's session (made once both are seeded: seeding the large one outlasts the idle limit). */
async function logIn(instance: Instance) {
  const [admin] = rowsOf<{ id: string }>(await instance.db.execute(sql`select md5('user1')::uuid as id`));
  const now = new Date();
  instance.cookie = await createSession(instance.db, {
    userId: admin!.id,
    stage: 'active',
    now,
    limits: instance.config.sessions,
    authenticatedAt: now,
  });
}

const CALLS = [
  { name: 'people search (q)', url: `${ADMIN_ROUTES.people}?q=first1` },
  { name: 'people list (no q)', url: ADMIN_ROUTES.people },
  { name: 'requests list', url: ADMIN_ROUTES.requests },
];

async function timed(instance: Instance, url: string): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(`${instance.base}${url}`, {
    headers: { ...instance.headers, cookie: `${SESSION_COOKIE}=${instance.cookie}` },
  });
  const body = (await res.json()) as { data?: { total: number } };
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200 || !body.data?.total) throw new Error(`${instance.label} ${url}: ${res.status}`);
  return ms;
}

const small = await startInstance('admin_small', SMALL_USERS);
const large = await startInstance('admin_large', LARGE_USERS);
const instances = [small, large];
for (const instance of instances) await logIn(instance);
let failed = false;
try {
  for (const call of CALLS) {
    const totals = await Promise.all(
      instances.map(async (instance) => {
        const res = await fetch(`${instance.base}${call.url}`, {
          headers: { ...instance.headers, cookie: `${SESSION_COOKIE}=${instance.cookie}` },
        });
        return ((await res.json()) as { data: { total: number } }).data.total;
      }),
    );
    console.log(`\n${call.name}: ${call.url} (the administrator sees ${totals.join(' and ')} rows)`);
    for (let i = 0; i < WARM_UP; i++) for (const instance of instances) await timed(instance, call.url);
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const times: number[][] = [[], []];
      for (let i = 0; i < SAMPLES_PER_ROUND; i++)
        for (const k of i % 2 ? [1, 0] : [0, 1]) times[k]!.push(await timed(instances[k]!, call.url));
      const [s, l] = times.map(summary) as [ReturnType<typeof summary>, ReturnType<typeof summary>];
      ratios.push(l.p99 / s.p99);
      console.log(
        `  round ${round}: ${small.label} p50 ${s.p50.toFixed(2)} / p99 ${s.p99.toFixed(2)} ms; ${large.label} p50 ${l.p50.toFixed(2)} / p99 ${l.p99.toFixed(2)} ms; ratio ${(l.p99 / s.p99).toFixed(2)}× (${loadAverage()})`,
      );
    }
    const ratio = median(ratios);
    const pass = ratio <= TARGET;
    failed ||= !pass;
    console.log(
      `  ${call.name}: median p99 ratio ${large.label} / ${small.label} ${ratio.toFixed(2)}× — target ≤ ${TARGET}× ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
} finally {
  for (const instance of instances) await instance.close();
  if (adminUrl)
    await onAdminDatabase(
      instances.map((i) => `drop database if exists ${quoted(new URL(databaseUrlFor(i.suffix)!).pathname.slice(1))}`),
    );
  rmSync(runDir, { recursive: true, force: true });
}
console.log(failed ? '\nbench:admin FAIL' : '\nbench:admin PASS');
process.exitCode = failed ? 1 : 0;
