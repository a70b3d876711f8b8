import { GeneratedPasswordResponse } from '@portal/contracts/password-policy';
import { AUTH_ROUTES } from '@portal/contracts/paths';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { generatePassword } from './service';

/** Generated passwords per client address and minute: enough for a person pressing "suggest" repeatedly. */
export const GENERATE_PER_MINUTE = 30;

/** `POST /api/password/generate/get` (docs/requirements/api.md): a random password that passes the policy. */
export const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  app.post(
    AUTH_ROUTES.generatePassword,
    {
      config: {
        audit: { exempt: 'answers a random password and stores nothing (POST only so it is never cached)' },
        rateLimit: routeRateLimit({ max: GENERATE_PER_MINUTE, timeWindow: 60_000, key: 'ip' }),
      },
      schema: { response: { 200: GeneratedPasswordResponse } },
    },
    async () => ({ data: { password: generatePassword() } }),
  );
};
