import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema, ReadinessSchema, type Readiness } from '@portal/contracts/http';
import type { DatabaseHandle } from '../../db/client';

/** Liveness (the process answers) and readiness (the database answers and is fully migrated) for load balancers. */
export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (app, options) => {
  app.get('/healthz', { schema: { response: { 200: HealthSchema } } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    { schema: { response: { 200: ReadinessSchema, 503: ReadinessSchema } } },
    async (request, reply) => {
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
    },
  );
};
