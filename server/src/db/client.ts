import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
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
  close(): Promise<void>;
}

/** Committed SQL migrations: beside this file in the sources, copied next to main.js by the server build. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

function committedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

async function appliedMigrationCount(db: Db): Promise<number> {
  try {
    const rows = await db.execute<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
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

function handle(db: Db, kind: DatabaseHandle['kind'], migrate: () => Promise<number>, close: () => Promise<void>): DatabaseHandle {
  return {
    db,
    kind,
    migrate,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async migrationsApplied() {
      return (await appliedMigrationCount(db)) >= committedMigrationCount();
    },
    close,
  };
}

/** Embedded PostgreSQL (PGlite, WASM) persisted in `dataDir`; one process at a time may open a folder. */
export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return handle(
    db,
    'pglite',
    () => migrateCounting(db, () => migratePglite(db as never, { migrationsFolder })),
    () => client.close(),
  );
}

/** A real PostgreSQL server through node-postgres' pool. */
export function openPostgres(url: string, poolMax = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, connectionTimeoutMillis: 5_000, statement_timeout: 10_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
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
    () => pool.end(),
  );
}

export async function openDatabase(options: { databaseUrl?: string | undefined; dataDir: string; poolMax?: number }): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolMax) : openPglite(`${options.dataDir}/pgdata`);
}
