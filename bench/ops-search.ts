// The help desk's one-box search at size (docs/requirements/help-desk.md): `searchPeople` (the service behind
// `GET /api/ops/search`) over 100,000 users, 100,000 locations and their links, for each kind of box text: a username
// prefix, an email prefix, a last name, "first last", an NPI and a PTAN. Each kind is timed 200 times (after 20 warm-up
// calls) with varying texts; the p50 and p99 per kind are the figures, and EXPLAIN shows the indexes each kind uses.
// Database: PostgreSQL when BENCH_DATABASE_URL is set (a database `<db>_ops_search` is created and dropped), else
// embedded PGlite. Run: npm run bench:ops-search   (BENCH_OPS_USERS=20000 for a quicker run)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, type Db } from '../server/src/db/client';
import { rowsOf } from '../server/src/platform/db-executor';
import { searchPeople } from '../server/src/modules/ops/service';
import { loadAverage, summary } from './support/measure';

const USERS = Number(process.env.BENCH_OPS_USERS ?? 100_000);
const SAMPLES = 200;
const WARM_UP = 20;
const runDir = mkdtempSync(join(tmpdir(), 'portal-bench-ops-'));
const adminUrl = process.env.BENCH_DATABASE_URL;
const databaseUrl = adminUrl
  ? (() => {
      const url = new URL(adminUrl);
      url.pathname = `/${(url.pathname.slice(1) || 'postgres') + '_ops_search'}`;
      return url.toString();
    })()
  : undefined;

async function onAdmin(statement: string) {
  const admin = await openDatabase({ databaseUrl: adminUrl, dataDir: runDir, poolMax: 1 });
  try {
    await admin.db.execute(sql.raw(statement));
  } finally {
    await admin.close();
  }
}

async function unlimited(db: Db, statement: SQL) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(statement);
  });
}

const FIRST = ['Avery', 'Jordan', 'Riley', 'Morgan', 'Casey', 'Quinn', 'Harper', 'Rowan', 'Emerson', 'Parker'];

/** Person n: `ops.user.<n>`, first name FIRST[n mod 10], last name `Family<n mod 5000>`; location n-1 with NPI/PTAN. */
async function seed(db: Db) {
  const started = Date.now();
  await unlimited(
    db,
    sql`insert into provider_locations (id, npi, ptan, tin, legal_name, jurisdiction, line_of_business, state,
      address_line1, city, zip)
    select md5('location' || l)::uuid, lpad((1000000000 + l)::text, 10, '0'), 'PT' || lpad(l::text, 6, '0'),
      '123456789', 'Clinic ' || l, 'J5', 'B', 'IA', '1 Main St', 'Des Moines', '50309'
    from generate_series(0, ${USERS - 1}) as l`,
  );
  await unlimited(
    db,
    sql`insert into users (id, username, email, first_name, last_name, dob, password_hash, status, mfa_enrolled_at)
    select md5('user' || n)::uuid, 'ops.user.' || n, 'ops.user.' || n || '@example.com',
      (array['Avery','Jordan','Riley','Morgan','Casey','Quinn','Harper','Rowan','Emerson','Parker'])[n % 10 + 1],
      'Family' || (n % 5000), '1980-01-01', 'not-a-hash', 'active', now()
    from generate_series(1, ${USERS}) as n`,
  );
  await unlimited(
    db,
    sql`insert into user_locations (user_id, location_id, role)
    select md5('user' || n)::uuid, md5('location' || (n - 1))::uuid,
      (case when n % 10 = 0 then 'administrator' else 'user' end)::location_role
    from generate_series(1, ${USERS}) as n`,
  );
  for (const table of ['users', 'provider_locations', 'user_locations'])
    await unlimited(db, sql.raw(`analyze ${table}`));
  console.log(
    `  seeded ${USERS.toLocaleString('en-US')} users and locations in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

const pick = (i: number) => 1 + ((i * 7919) % USERS);
const KINDS: { name: string; text: (i: number) => string }[] = [
  { name: 'username prefix', text: (i) => `ops.user.${pick(i)}` },
  { name: 'email prefix', text: (i) => `ops.user.${pick(i)}@exa` },
  { name: 'last name', text: (i) => `Family${pick(i) % 5000}` },
  { name: 'first last', text: (i) => `${FIRST[pick(i) % 10]} Family${pick(i) % 5000}` },
  { name: 'NPI', text: (i) => String(1000000000 + pick(i) - 1) },
  { name: 'PTAN', text: (i) => `pt${String(pick(i) - 1).padStart(6, '0')}` },
];

if (adminUrl) {
  const name = `"${new URL(databaseUrl!).pathname.slice(1)}"`;
  await onAdmin(`drop database if exists ${name} with (force)`);
  await onAdmin(`create database ${name}`);
}
const database = await openDatabase({ databaseUrl, dataDir: runDir, poolMax: 4 });
try {
  await database.migrate();
  await seed(database.db);
  const ctx = { db: database.db };
  console.log(
    `\none-box search over ${USERS.toLocaleString('en-US')} users (${adminUrl ? 'PostgreSQL' : 'PGlite'}), load ${loadAverage()}`,
  );
  for (const kind of KINDS) {
    for (let i = 0; i < WARM_UP; i++) await searchPeople(ctx, kind.text(i + 10_000));
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const started = process.hrtime.bigint();
      const result = await searchPeople(ctx, kind.text(i));
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (result.people.length) found++;
    }
    const { p50, p99 } = summary(times);
    console.log(
      `  ${kind.name.padEnd(16)} p50 ${p50.toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  (${found}/${SAMPLES} found someone)`,
    );
  }
  // What the planner does for a name prefix: index scans (users_*_prefix_idx), not a sequential scan of users.
  const plan = rowsOf<{ 'QUERY PLAN': string }>(
    await database.db.execute(
      sql`explain select id from users where lower(username) like 'jordan family4321%'
        or lower(email) like 'jordan family4321%' or lower(last_name) like 'jordan family4321%'
        or lower(first_name) like 'jordan family4321%' or lower(first_name || ' ' || last_name) like 'jordan family4321%'
        order by last_name limit 26`,
    ),
  )
    .map((row) => row['QUERY PLAN'])
    .join('\n    ');
  console.log(`\n  plan of a name search:\n    ${plan}`);
  if (/Seq Scan on users/.test(plan)) process.exitCode = 1;
} finally {
  await database.close();
  if (adminUrl) await onAdmin(`drop database if exists "${new URL(databaseUrl!).pathname.slice(1)}" with (force)`);
  rmSync(runDir, { recursive: true, force: true });
}
