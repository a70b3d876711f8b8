import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema, ReadinessSchema } from '@portal/contracts/http';
import type { DatabaseHandle } from '../../db/client';
import { readiness } from './service';

/**
 * Liveness (the process answers) and readiness (service.ts) for load balancers. Not under /api/, so the answers set
 * their own `no-store`.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (app, options) => {
  app.get('/healthz', { schema: { response: { 200: HealthSchema } } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    { schema: { response: { 200: ReadinessSchema, 503: ReadinessSchema } } },
    async (request, reply) => {
      const answer = await readiness(options.database, request.log);
      return reply
        .code(answer.status === 'ready' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(answer);
    },
  );
};
