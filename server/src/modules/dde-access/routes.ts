import {
  DDE_REQUESTS_PATH,
  DDE_SUBMIT_PATH,
  DdeRequestListResponse,
  DdeSubmitRequest,
  DdeSubmitResponse,
  GET_EASI_PATH,
  GetEasiRequest,
  GetEasiResponse,
} from '@portal/contracts/dde-access';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { requireSession } from '../../identity/sessions/guards';
import { easiLocations, listOwnDdeRequests, submitDdeRequest } from './service';

/** Submissions per client address and minute: a person retrying, not a script. */
export const DDE_SUBMITS_PER_MINUTE = 20;

/**
 * DDE access (docs/requirements/portal.md#dde-access-request): the enrollment facts that pre-fill the form, and the
 * request itself, for logged-in users linked to the location; the user's own requests for the portal home. The flows
 * are in service.ts. Never cached (platform/security-headers.ts, as every `/api/` answer).
 */
export const ddeAccessRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);

  // Reading is not a change: no audit; only the caller's own requests.
  app.get(
    DDE_REQUESTS_PATH,
    { preHandler: requireSession, schema: { response: { 200: DdeRequestListResponse } } },
    async (request) => ({
      data: { requests: await listOwnDdeRequests(serviceContext(request), request.portalSession!.userId) },
    }),
  );

  app.post(
    GET_EASI_PATH,
    {
      config: { audit: { action: 'dde.easi' }, errors: { 403: ['Dde_Location_Not_Linked'] } },
      preHandler: requireSession,
      schema: { body: GetEasiRequest, response: { 200: GetEasiResponse } },
    },
    async (request) => ({
      data: { locations: await easiLocations(serviceContext(request), request.portalSession!.userId, request.body) },
    }),
  );

  app.post(
    DDE_SUBMIT_PATH,
    {
      preHandler: requireSession,
      config: {
        audit: { action: 'dde.submit' },
        rateLimit: routeRateLimit({ max: DDE_SUBMITS_PER_MINUTE, timeWindow: 60_000, key: 'ip' }),
        errors: { 403: ['Dde_Location_Not_Linked'], 409: ['Dde_Idempotency_Conflict'] },
      },
      schema: { body: DdeSubmitRequest, response: { 200: DdeSubmitResponse } },
    },
    async (request) => ({
      data: await submitDdeRequest(serviceContext(request), request.portalSession!.userId, request.body),
    }),
  );
};
