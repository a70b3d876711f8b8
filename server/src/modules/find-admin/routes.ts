import {
  FIND_ADMIN_CONTACT_PATH,
  FindAdminContactRequest,
  FindAdminContactResponse,
} from '@portal/contracts/find-admin';
import { FIND_ADMIN_PATH, FindAdminRequest, FindAdminResponse } from '@portal/contracts/find-admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { findAdministrators, relayContactRequest } from './service';

/**
 * `POST /api/locations/public-find-admin` (docs/requirements/portal.md#find-my-administrator): anyone may ask who
 * administers a location they can name by NPI + PTAN + TIN. Answers names and masked emails only, and an opaque
 * handle for `POST …/contact` ("Ask this administrator to contact me"), which emails the administrators the
 * visitor's request without ever showing their addresses. Both are throttled per client (per minute here, per day in
 * the service); the relay also per location per day. Never cached (platform/security-headers.ts, as every `/api/` answer).
 */
export const findAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  const { findAdminPerMinute } = app.config.loginHelp;

  app.post(
    FIND_ADMIN_PATH,
    {
      config: {
        audit: { action: 'location.find-admin' },
        rateLimit: routeRateLimit({ max: findAdminPerMinute, timeWindow: 60_000, key: 'ip' }),
        errors: { 404: ['Find_Admin_No_Match'] },
      },
      schema: { body: FindAdminRequest, response: { 200: FindAdminResponse } },
    },
    async (request) => ({ data: await findAdministrators(serviceContext(request), request.body) }),
  );

  app.post(
    FIND_ADMIN_CONTACT_PATH,
    {
      config: {
        audit: { action: 'location.find-admin-contact' },
        rateLimit: routeRateLimit({ max: findAdminPerMinute, timeWindow: 60_000, key: 'ip' }),
        errors: { 400: ['Find_Admin_Contact_Expired'] },
      },
      schema: { body: FindAdminContactRequest, response: { 200: FindAdminContactResponse } },
    },
    async (request) => {
      await relayContactRequest(serviceContext(request), request.body);
      return { data: { sent: true as const } };
    },
  );
};
