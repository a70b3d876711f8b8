// The load gate's control (docs/decisions/0037-bench-gates.md): a bare Node HTTP server that shares nothing with any
// other process and has the portal's shape. Every request does the same fixed work on the event loop: `rows` objects
// built, turned into JSON and parsed back (allocation and garbage collection, as a web request's work), in as many
// bursts as a portal request makes database round trips, each burst followed by `select 1` on a pool of its own (no
// table, no row, no lock: nothing another process could contend for). A share of the requests, as many as the
// portal's password logins, also verifies a password with the portal's own hasher and settings (its worker threads
// of lower priority): a hash's cost depends on how far apart the hashes come, which two instances at half the rate
// each pay without sharing anything (bench/results/, 2026-11-27 sessions 8 and 10). Run as one and as two processes
// behind the same nginx at the portal's rate, it measures what a second process costs on this machine by itself.
// Usage: tsx control-server.ts '<ControlOptions as JSON>'   (prints "ready" once listening)
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PasswordHasher, type HashingSettings } from '../../server/src/platform/password-hashing';

export interface ControlOptions {
  port: number;
  /** The fixed work per request (bench/gates/load.ts calibrates it to the portal's event-loop CPU per request). */
  rows: number;
  databaseUrl: string;
  /** Round trips per request on average (2.4: two, and a third four times in ten). */
  queriesPerRequest: number;
  /** Password verifications per request on average, with the portal's `hashing` settings. */
  hashesPerRequest: number;
  hashing: HashingSettings;
}

/** The fixed work of one burst. */
export function work(rows: number): number {
  const list = [];
  for (let i = 0; i < rows; i++) list.push({ id: i, name: `row ${i}`, tags: ['control', String(i % 7)], ok: true });
  return (JSON.parse(JSON.stringify(list)) as unknown[]).length;
}

/** A whole number averaging `mean`: its integer part, and one more with the fraction's probability. */
export const around = (mean: number) => Math.floor(mean) + (Math.random() < mean % 1 ? 1 : 0);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2]!) as ControlOptions;
  // The portal's pool size (DATABASE_POOL_MAX in deploy/portal.env.example).
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  pool.on('error', () => {});
  const hasher = new PasswordHasher(options.hashing);
  const password = 'control password long enough for the policy';
  const storedHash = await hasher.hash(password);
  const body = JSON.stringify({ data: { control: true, padding: 'x'.repeat(1024) } });
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      const trips = around(options.queriesPerRequest);
      const burst = Math.round(options.rows / (trips + 1));
      let n = 0;
      for (let i = 0; i < trips; i++) {
        n += work(burst);
        await pool.query('select 1');
      }
      if (around(options.hashesPerRequest) > 0) await hasher.verify(storedHash, password);
      n += work(burst);
      response.writeHead(200, { 'content-type': 'application/json', 'x-control-rows': String(n) });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 10_000; // longer than nginx's upstream keepalive_timeout (4 s), as the portal's
  server.listen(options.port, '127.0.0.1', () => console.log('ready'));
  process.on('SIGTERM', () =>
    server.close(() => void Promise.allSettled([hasher.close(), pool.end()]).finally(() => process.exit(0))),
  );
}
