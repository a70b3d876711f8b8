import type { Readiness } from '@portal/contracts/http';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';

/**
 * Readiness for load balancers: ready when the database answers and every migration is applied. Takes the database
 * handle (not a ServiceContext's `db`): the check is about the connection itself.
 */
export async function readiness(
  database: Pick<DatabaseHandle, 'ping' | 'migrationsApplied'>,
  log: FastifyBaseLogger,
): Promise<Readiness> {
  const answer: Readiness = { status: 'not_ready', database: 'down', migrations: 'unknown' };
  try {
    await database.ping();
    answer.database = 'up';
    answer.migrations = (await database.migrationsApplied()) ? 'applied' : 'pending';
  } catch (err) {
    log.warn({ err }, 'readiness check: database unreachable');
  }
  if (answer.database === 'up' && answer.migrations === 'applied') answer.status = 'ready';
  return answer;
}
