import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../src/db/client';
import { isDatabaseUnavailable } from '../src/platform/database-unavailable';
import { rowsOf } from '../src/platform/db-executor';
import { buildTestApp, createTestDatabase } from './helpers';

/** A loopback port nothing listens on: a PostgreSQL that is stopped. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// docs/requirements/platform.md#operations (database outage): PostgreSQL stopped → 503 Service_Unavailable at once,
// never a 500 with a stack trace; the load balancer and the bench's fault gate (bench/gates/faults.ts) rely on it.
describe('database outage', () => {
  it('answers 503 Service_Unavailable with Retry-After at once while PostgreSQL refuses connections; other query faults stay 500', async () => {
    // The app runs on its own test database; one route queries a PostgreSQL that is stopped, through the same
    // driver and pool settings the portal uses, so the error reaches the error handler exactly as in an outage.
    const stopped = openPostgres(`postgres://portal:portal@127.0.0.1:${await closedPort()}/portal`);
    const { app, database, logLines } = await buildTestApp({
      extraRoutes: (app) => {
        app.get('/api/test-stopped-database', { schema: { hide: true } }, async () => {
          await stopped.db.execute(sql`select 1`);
          return { data: 'unreachable' };
        });
        app.get('/api/test-bad-query', { schema: { hide: true } }, async () => {
          await database.db.execute(sql`select * from no_such_table`);
          return { data: 'unreachable' };
        });
      },
    });
    try {
      const started = Date.now();
      const outage = await app.inject({ method: 'GET', url: '/api/test-stopped-database' });
      expect(outage.statusCode).toBe(503);
      expect(outage.json()).toEqual({ errorMessage: 'Service_Unavailable' });
      expect(outage.headers['retry-after']).toBe('5');
      // A refused connection fails fast: far below the pool's 5 s connect timeout.
      expect(Date.now() - started).toBeLessThan(4_000);
      const lines = () => logLines.map((line) => JSON.parse(line) as { level: number; msg: string; cause?: string });
      expect(lines().filter((line) => line.level >= 50)).toEqual([]);
      expect(lines().find((line) => line.msg === 'database unavailable')).toMatchObject({
        level: 40,
        cause: 'ECONNREFUSED',
      });

      // A fault in the query itself is a bug, not an outage: still 500, logged at error level.
      const bad = await app.inject({ method: 'GET', url: '/api/test-bad-query' });
      expect(bad.statusCode).toBe(500);
      expect(bad.json()).toMatchObject({ errorMessage: 'Generic_Error_For_Services' });
      expect(lines().some((line) => line.level >= 50 && line.msg === 'request failed')).toBe(true);
    } finally {
      await app.close();
      await stopped.close();
    }
  });

  // PostgreSQL only (TEST_DATABASE_URL): PGlite has no connection to lose.
  it('answers 503 Service_Unavailable, never 500, to a transaction aborted for a conflict with another', async () => {
    const { app, database, logLines } = await buildTestApp({
      extraRoutes: (app) => {
        app.get('/api/test-conflict', { schema: { hide: true } }, async () => {
          // PostgreSQL's own error for a serialization failure (a deadlock's victim gets 40P01 the same way).
          await database.db.execute(
            sql`do $$ begin raise exception 'conflict' using errcode = 'serialization_failure'; end $$`,
          );
          return { data: 'unreachable' };
        });
      },
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/test-conflict' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ errorMessage: 'Service_Unavailable' });
      expect(res.headers['retry-after']).toBe('1');
      const lines = logLines.map((line) => JSON.parse(line) as { level: number; msg: string; cause?: string });
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      expect(lines.find((line) => line.msg === 'database conflict')).toMatchObject({ level: 40, cause: '40001' });
    } finally {
      await app.close();
    }
  });

  it.runIf(inject('postgresTemplate'))(
    'survives a connection lost in the middle of a transaction: the transaction fails as unavailable, the process lives on',
    async () => {
      const database = await createTestDatabase();
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown) => uncaught.push(err);
      process.on('uncaughtException', onUncaught);
      try {
        const failure = await database.db
          .transaction(async (tx) => {
            const [row] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
            // As `pg_ctl stop -m fast` does to every connection: ended by the server, here between two queries.
            await database.db.execute(sql`select pg_terminate_backend(${row!.pid})`);
            await new Promise((resolve) => setTimeout(resolve, 300));
            await tx.execute(sql`select 1`);
          })
          .then(
            () => undefined,
            (err: unknown) => err,
          );
        expect(failure).toBeDefined();
        expect(isDatabaseUnavailable(failure)).toBe(true);
        expect(uncaught).toEqual([]);
        // The pool dropped the dead connection and serves from a new one.
        expect(rowsOf(await database.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
      } finally {
        process.off('uncaughtException', onUncaught);
        await database.close();
      }
    },
  );
});
