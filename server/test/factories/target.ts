import type { FastifyInstance } from 'fastify';
import type { DbExecutor } from '../../src/platform/db-executor';
// The app's decorations (`database`, `passwordHasher`, `secrets`) on FastifyInstance, also for the browser tests.
import type {} from '../../src/app';

/**
 * Where a factory writes: a test app (its database, and its password hasher and encryption key where a factory needs
 * them), a bare database handle's `{ database }`, or a database or open transaction itself (the row then commits with
 * the caller's change).
 */
export type FactoryTarget =
  (Pick<FastifyInstance, 'database'> & Partial<Pick<FastifyInstance, 'passwordHasher' | 'secrets'>>) | DbExecutor;

export function dbOf(target: FactoryTarget): DbExecutor {
  return 'database' in target ? target.database.db : target;
}

/** The app part a factory needs (`what`: for what), or a clear error when the target has none. */
export function appPart<K extends 'passwordHasher' | 'secrets'>(
  target: FactoryTarget,
  key: K,
  what: string,
): NonNullable<FastifyInstance[K]> {
  const part = 'database' in target ? target[key] : undefined;
  if (!part) throw new Error(`factories: ${what} needs an app with its ${key}`);
  return part as NonNullable<FastifyInstance[K]>;
}

let serial = 0;
/** A short text no other call in this test file answers (factories make names unique with it). */
export function unique(): string {
  return `${Date.now().toString(36)}${(serial++).toString(36)}`;
}
