import type { FastifyInstance } from 'fastify';
import type { Readiness } from '@portal/contracts/http';
import type { DatabaseHandle } from '../../db/client';

/** Liveness (the process answers) and readiness (the database answers and is fully migrated) for load balancers. */
export async function healthRoutes(app: FastifyInstance, options: { database: DatabaseHandle }) {
  app.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    const readiness: Readiness = { status: 'not_ready', database: 'down', migrations: 'unknown' };
    try {
      await options.database.ping();
      readiness.database = 'up';
      readiness.migrations = (await options.database.migrationsApplied()) ? 'applied' : 'pending';
    } catch (err) {
      request.log.warn({ err }, 'readiness check: database unreachable');
    }
    if (readiness.database === 'up' && readiness.migrations === 'applied') readiness.status = 'ready';
    return reply
      .code(readiness.status === 'ready' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(readiness);
  });
}
