import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Writable } from 'node:stream';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; answers how many were new. Safe to call from several instances at once. */
  migrate(): Promise<number>;
  /** Throws when the database cannot answer a trivial query. */
  ping(): Promise<void>;
  /** Whether every committed migration is recorded as applied. */
  migrationsApplied(): Promise<boolean>;
  /** Sends `payload` to every connection listening on `channel`, this process's included (PostgreSQL NOTIFY). */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Calls `onMessage` with each payload sent on `channel` (PostgreSQL LISTEN). On PostgreSQL a dedicated connection
   * listens and reconnects when it drops; `onReconnect` then says that messages may have been missed meanwhile.
   * Answers a function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void, events?: ListenEvents): Promise<() => Promise<void>>;
  /**
   * A connection of its own for a long piece of work (a data-feed import): session state (temporary tables, advisory
   * locks) stays on it, no statement time limit applies, and PostgreSQL's COPY is reachable. On PGlite it is the one
   * embedded connection, whose transactions exclude every other query meanwhile.
   */
  dedicated(): Promise<DedicatedConnection>;
  close(): Promise<void>;
  /** PostgreSQL only (PGlite has one connection, no pool): the pool's connections and queued queries now. */
  poolStats?(): PoolStats;
  /** PostgreSQL only: calls `listener` with the seconds each checkout waited for a connection; answers an unsubscribe. */
  onPoolAcquire?(listener: (seconds: number) => void): () => void;
}

export type QueryFn = <R = Record<string, unknown>>(
  text: string,
  params?: unknown[],
) => Promise<{ rows: R[]; count: number }>;

export interface DedicatedConnection {
  kind: DatabaseHandle['kind'];
  query: QueryFn;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (query: QueryFn) => Promise<T>): Promise<T>;
  /** PostgreSQL only: a writable stream into `COPY … FROM STDIN` (pg-copy-streams). */
  copyFrom?(statement: string): Writable;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface ListenEvents {
  /** The listening connection was lost and is listening again: notifications sent in between were missed. */
  onReconnect?: () => void;
  /** The listening connection was lost or could not be re-established (it keeps retrying). */
  onError?: (err: unknown) => void;
}

/** A channel name as a quoted SQL identifier (LISTEN takes no bind parameter). */
function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Committed SQL migrations: beside this file in the sources, copied next to main.js by the server build. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

function committedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

async function appliedMigrationCount(db: Db): Promise<number> {
  try {
    const rows = await db.execute<{ count: number }>(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    return Number((rows as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
  } catch {
    return 0; // the bookkeeping table does not exist before the first migration
  }
}

/** Runs the migrator on `db` and answers how many migrations it recorded as newly applied. */
async function migrateCounting(db: Db, runMigrations: () => Promise<void>): Promise<number> {
  const before = await appliedMigrationCount(db);
  await runMigrations();
  return (await appliedMigrationCount(db)) - before;
}

type Messaging = Pick<DatabaseHandle, 'notify' | 'listen'>;

function handle(
  db: Db,
  kind: DatabaseHandle['kind'],
  migrate: () => Promise<number>,
  close: () => Promise<void>,
  messaging: Messaging,
  dedicated: DatabaseHandle['dedicated'],
  pool: Pick<DatabaseHandle, 'poolStats' | 'onPoolAcquire'> = {},
): DatabaseHandle {
  return {
    db,
    kind,
    migrate,
    dedicated,
    ...messaging,
    ...pool,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async migrationsApplied() {
      return (await appliedMigrationCount(db)) >= committedMigrationCount();
    },
    close,
  };
}

/**
 * PostgreSQL settings of the embedded database, sized for one process serving one site
 * (docs/decisions/0070-pglite-memory.md). PostgreSQL's defaults (shared_buffers 128 MB) are a server's: in PGlite they
 * are WASM memory this process holds for good (a WASM memory never shrinks).
 */
export const PGLITE_SETTINGS = [
  'shared_buffers=16MB',
  'temp_buffers=2MB',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
  'wal_buffers=1MB',
] as const;

/** The child process that creates a new embedded database (beside this file in the sources and beside main.js). */
const pgliteInitScript = fileURLToPath(new URL('./pglite-init.mjs', import.meta.url));

/**
 * Creates the database in `dataDir` in a child process. PGlite's initdb runs in a temporary second WASM instance
 * whose memory would stay in this process until a garbage collection (872–917 MB RSS for ~35 s after a first start);
 * in a child it is given back when the child exits. An interrupted or failed creation leaves no PG_VERSION, so the next start
 * tries again.
 */
async function createPgliteDatabase(dataDir: string, options: PGliteOptions): Promise<void> {
  try {
    // --liftoff-only: V8's baseline WASM compiler only. initdb runs once, so optimised code would cost memory
    // (~85 MB at the peak) and time for nothing; the server process keeps the optimising tier for its queries.
    await promisify(execFile)(
      process.execPath,
      ['--liftoff-only', pgliteInitScript, dataDir, JSON.stringify(options)],
      { encoding: 'utf8' },
    );
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the embedded database in ${dataDir}${stderr ? `: ${stderr}` : ''}`, {
      cause: err,
    });
  }
}

/**
 * The PGlite client of the database in `dataDir` (created first when new), with the settings above and compiled by
 * V8's baseline WASM compiler only (Liftoff): the optimising compiler's memory stays in the process for good
 * (~70 MB RSS after a minute of load) while the queries it speeds up are within the noise of this machine's
 * measurements (bench/results/2026-11-29-pglite-memory.md). The flag concerns WebAssembly alone (the password
 * hasher is native code) and applies to modules compiled after it is set.
 */
export async function createPglite(dataDir: string): Promise<PGlite> {
  mkdirSync(dataDir, { recursive: true });
  // PGlite (its WASM glue, and drizzle's adapter, which imports it) is loaded only when a PGlite database is opened: a
  // process on PostgreSQL, such as `npm run import`, would otherwise hold ~40 MB of it for nothing
  // (docs/decisions/0089-import-rebuild-and-parse.md).
  const { PGlite } = await import('@electric-sql/pglite');
  // PGlite's own start parameters (single-user mode, fsync off…) with the settings above.
  const options: PGliteOptions = {
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  };
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await createPgliteDatabase(dataDir, options);
  setFlagsFromString('--liftoff-only');
  return PGlite.create(dataDir, options);
}

/** Embedded PostgreSQL (PGlite, WASM) persisted in `dataDir`; one process at a time may open a folder. */
export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const client = await createPglite(dataDir);
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return handle(
    db,
    'pglite',
    () => migrateCounting(db, () => migratePglite(db as never, { migrationsFolder })),
    () => client.close(),
    {
      async notify(channel, payload) {
        await client.query('select pg_notify($1, $2)', [channel, payload]);
      },
      // PGlite is one connection in this process: every listener on it (several app instances in one test, say)
      // hears every notification. It never disconnects, so there is nothing to reconnect.
      listen: (channel, onMessage) => client.listen(channel, onMessage).then((unlisten) => () => unlisten()),
    },
    async () => {
      const query: QueryFn = async (text, params) => {
        const result = await client.query(text, params);
        return { rows: result.rows as never[], count: result.affectedRows ?? 0 };
      };
      return {
        kind: 'pglite',
        query,
        transaction: (work) =>
          client.transaction((tx) =>
            work(async (text, params) => {
              const result = await tx.query(text, params);
              return { rows: result.rows as never[], count: result.affectedRows ?? 0 };
            }),
          ),
        close: async () => {},
      };
    },
  );
}

/** A real PostgreSQL server through node-postgres' pool. */
export function openPostgres(url: string, poolMax = 10): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: 5_000,
    statement_timeout: 10_000,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor a checked-out one: pg-pool takes its own listener off a client while it is checked out, so a connection lost
  // between two queries of a transaction (PostgreSQL stopped or restarted) emitted 'error' with no listener and
  // crashed the process. The next query on it fails (503 Service_Unavailable) and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const acquireListeners = new Set<(seconds: number) => void>();
  timePoolCheckouts(pool, (seconds) => {
    for (const listener of acquireListeners) listener(seconds);
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listeners = new Set<() => Promise<void>>();
  return handle(
    db,
    'postgres',
    async () => {
      // Several instances may start at once: a session-level advisory lock lets exactly one migrate at a time.
      // Lock, migration and the before/after count share one connection so a pool of one cannot deadlock, and an
      // instance that waited for another reports 0 applied, not the other's work.
      const lockClient = await pool.connect();
      try {
        await lockClient.query("select pg_advisory_lock(hashtext('portal:migrations'))");
        const lockDb = drizzlePg(lockClient, { schema }) as unknown as Db;
        return await migrateCounting(lockDb, () => migratePg(lockDb as never, { migrationsFolder }));
      } finally {
        await lockClient.query("select pg_advisory_unlock(hashtext('portal:migrations'))").catch(() => {});
        lockClient.release();
      }
    },
    async () => {
      // The listening connections belong to the handle: closing it ends them too (a database can then be dropped).
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
    {
      async notify(channel, payload) {
        await pool.query('select pg_notify($1, $2)', [channel, payload]);
      },
      async listen(channel, onMessage, events) {
        const stop = await listenOnPostgres(url, channel, onMessage, events);
        const stopOnce = async () => {
          listeners.delete(stopOnce);
          await stop();
        };
        listeners.add(stopOnce);
        return stopOnce;
      },
    },
    async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
      client.on('error', () => {});
      await client.connect();
      const query: QueryFn = async (text, params) => {
        const result = await client.query(text, params);
        return { rows: result.rows as never[], count: result.rowCount ?? 0 };
      };
      return {
        kind: 'postgres',
        query,
        async transaction(work) {
          await client.query('begin');
          try {
            const result = await work(query);
            await client.query('commit');
            return result;
          } catch (err) {
            await client.query('rollback').catch(() => {});
            throw err;
          }
        },
        copyFrom: (statement) => client.query(copyFromStdin(statement)),
        close: () => client.end(),
      };
    },
    {
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolMax }),
      onPoolAcquire(listener) {
        acquireListeners.add(listener);
        return () => acquireListeners.delete(listener);
      },
    },
  );
}

/**
 * Measures how long each checkout waits for a connection (metrics: pool wait). pg-pool's `query` checks out through
 * `this.connect(callback)` and transactions through `connect()`, so wrapping `connect` sees both.
 */
function timePoolCheckouts(pool: pg.Pool, observe: (seconds: number) => void): void {
  type Callback = (err: Error | undefined, client: pg.PoolClient | undefined, release: () => void) => void;
  const connect = pool.connect.bind(pool) as (callback?: Callback) => Promise<pg.PoolClient> | undefined;
  const since = (start: number) => observe((performance.now() - start) / 1000);
  (pool as { connect: unknown }).connect = (callback?: Callback) => {
    const start = performance.now();
    if (callback)
      return connect((err, client, release) => {
        since(start);
        callback(err, client, release);
      });
    return connect()!.then((client) => {
      since(start);
      return client;
    });
  };
}

const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * LISTEN needs a connection of its own for as long as the process runs (a pooled one would be handed to other
 * queries). When it drops (the server restarted, a network blip) it reconnects with a growing pause, listens again and
 * says so (`onReconnect`), since notifications sent meanwhile are lost. The first connection must succeed.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  events: ListenEvents = {},
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let pauseMs = RECONNECT_FIRST_MS;

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    // An 'error' on an idle client is followed by 'end'; without a listener it would crash the process.
    client.on('error', (err) => events.onError?.(err));
    client.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    client.on('end', () => {
      if (current !== client || stopped) return;
      current = undefined;
      events.onError?.(new Error(`the connection listening on ${channel} closed`));
      scheduleReconnect();
    });
    try {
      await client.connect();
      await client.query(`listen ${quoteIdentifier(channel)}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (stopped) return void (await client.end().catch(() => {}));
    current = client;
  }

  function scheduleReconnect(): void {
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (stopped) return;
      connect().then(
        () => {
          pauseMs = RECONNECT_FIRST_MS;
          if (!stopped) events.onReconnect?.();
        },
        (err: unknown) => {
          events.onError?.(err);
          pauseMs = Math.min(pauseMs * 2, RECONNECT_MAX_MS);
          scheduleReconnect();
        },
      );
    }, pauseMs);
    retryTimer.unref();
  }

  await connect();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolMax?: number;
}): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolMax)
    : openPglite(`${options.dataDir}/pgdata`);
}
