import { GeneratedPasswordResponse } from '@portal/contracts/password-policy';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { generatePassword } from './service';

/** Generated passwords per client address and minute: enough for a person pressing "suggest" repeatedly. */
export const GENERATE_PER_MINUTE = 30;

/** `POST /api/password/generate/get` (docs/requirements/api.md): a random password that passes the policy. */
export const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  app.post(
    '/api/password/generate/get',
    {
      config: { rateLimit: routeRateLimit({ max: GENERATE_PER_MINUTE, timeWindow: 60_000, key: 'ip' }) },
      schema: { response: { 200: GeneratedPasswordResponse } },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ data: { password: generatePassword() } }),
  );
};
