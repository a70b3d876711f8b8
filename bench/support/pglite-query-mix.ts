// One round of bench/memory.ts's query-time comparison, in a process of its own (V8's WebAssembly compiler flags are
// per process): opens the PGlite database in <data folder> with PGlite's defaults (`defaults`) or as the server opens
// it (`settings`: createPglite in server/src/db/client.ts), runs the SQL mix `warm-up` times, then times it
// `iterations` times and prints {"ms": …}.
// Usage: tsx bench/support/pglite-query-mix.ts <defaults|settings> <data folder> <iterations> <warm-up>
// PGlite's defaults need PGlite itself: a dependency of the server workspace, whose database client this compares with.
// eslint-disable-next-line import-x/no-extraneous-dependencies
import { PGlite } from '@electric-sql/pglite';
import { createPglite } from '../../server/src/db/client';

const [mode, dataDir, iterations = '200', warmUp = '50'] = process.argv.slice(2);
if ((mode !== 'defaults' && mode !== 'settings') || !dataDir)
  throw new Error('usage: <defaults|settings> <dir> [n] [w]');
const ADMIN = 'demo.admin.j5';

/** The SQL mix: look-ups by key and by join, an aggregate, a sort over every claim, a page of locations, a write. */
async function queryMix(db: PGlite, userId: string): Promise<void> {
  await db.query('select id, username, status from users where username = $1', [ADMIN]);
  await db.query(
    `select u.id, u.first_name, u.last_name, ul.role from user_locations ul join users u on u.id = ul.user_id
     where ul.location_id in (select location_id from user_locations where user_id = $1) order by u.last_name limit 30`,
    [userId],
  );
  await db.query(`select location_id, count(*) from access_requests where status = 'pending' group by 1`);
  await db.query('select * from claims order by paid_amount desc, id limit 20');
  await db.query('select id, legal_name from provider_locations order by legal_name limit 50 offset 100');
  await db.query(`insert into audit_events (action, outcome, actor) values ('bench.memory', 'success', 'bench')`);
}

const db = mode === 'defaults' ? await PGlite.create(dataDir) : await createPglite(dataDir);
const user = await db.query<{ id: string }>('select id from users where username = $1', [ADMIN]);
const userId = user.rows[0]!.id;
for (let i = 0; i < Number(warmUp); i++) await queryMix(db, userId);
const start = performance.now();
for (let i = 0; i < Number(iterations); i++) await queryMix(db, userId);
const ms = performance.now() - start;
await db.close();
console.log(JSON.stringify({ ms }));
