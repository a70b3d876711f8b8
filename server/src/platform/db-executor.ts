import type { Db } from '../db/client';

/** The database or an open transaction: platform writers take either, so their row commits with the caller's change. */
export type DbExecutor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Rows of a raw `execute`, whichever driver (PGlite or node-postgres) answered. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
