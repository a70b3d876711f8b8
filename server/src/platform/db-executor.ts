import type { Db } from '../db/client';

/** The database or an open transaction: platform writers take either, so their row commits with the caller's change. */
export type DbExecutor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Rows of a raw `execute`, whichever driver (PGlite or node-postgres) answered. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * A hot statement built and named once per database handle (or transaction), then only executed with its placeholders
 * filled (docs/decisions/0062): drizzle builds no SQL on the request path, and PostgreSQL parses it once per connection
 * and, after a few runs, keeps its plan. `name` must stand for one SQL text only: node-postgres refuses a name reused
 * for another text on a connection. PGlite runs the same SQL unnamed.
 */
export function preparedStatement<T>(db: DbExecutor, name: string, prepare: (name: string) => T): T {
  let byName = prepared.get(db);
  if (!byName) prepared.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) byName.set(name, (statement = prepare(name)));
  return statement;
}
const prepared = new WeakMap<object, Map<string, unknown>>();
