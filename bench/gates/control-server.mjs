// The load gate's control (docs/decisions/0037-bench-gates.md): a bare Node HTTP server that shares nothing with any
// other process and does the same fixed work for every request: `rows` objects built, turned into JSON and parsed
// back (allocation and garbage collection, as a web request's work), in as many bursts as the request makes database
// round trips, each burst followed by `select 1` on a pool of its own (no table, no row, no lock: nothing another
// process could contend for). Run as one and as two processes behind the same nginx at the portal's rate, it
// measures what a second process costs on this machine by itself, for a server of the portal's shape.
// Usage: node control-server.mjs PORT ROWS [DATABASE_URL QUERIES_PER_REQUEST]   (prints "ready" once listening)
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The fixed work of one burst; bench/gates/load.ts calibrates `rows` to the portal's CPU per request. */
export function work(rows) {
  const list = [];
  for (let i = 0; i < rows; i++) list.push({ id: i, name: `row ${i}`, tags: ['control', String(i % 7)], ok: true });
  return JSON.parse(JSON.stringify(list)).length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [port, rows, databaseUrl, queries] = [
    Number(process.argv[2]),
    Number(process.argv[3]),
    process.argv[4],
    Number(process.argv[5] ?? 0),
  ];
  // The portal's pool size (DATABASE_POOL_MAX in deploy/portal.env.example).
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 10 }) : undefined;
  pool?.on('error', () => {});
  const body = JSON.stringify({ data: { control: true, padding: 'x'.repeat(1024) } });
  /** A whole number of round trips averaging `queries` (2.4: two, and a third four times in ten). */
  const roundTrips = () => Math.floor(queries) + (Math.random() < queries % 1 ? 1 : 0);
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      const trips = pool ? roundTrips() : 0;
      let n = 0;
      for (let i = 0; i < trips; i++) {
        n += work(Math.round(rows / (trips + 1)));
        await pool.query('select 1');
      }
      n += work(Math.round(rows / (trips + 1)));
      response.writeHead(200, { 'content-type': 'application/json', 'x-control-rows': String(n) });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 10_000; // longer than nginx's upstream keepalive_timeout (4 s), as the portal's
  server.listen(port, '127.0.0.1', () => console.log('ready'));
  process.on('SIGTERM', () => server.close(() => pool?.end().finally(() => process.exit(0))));
}
