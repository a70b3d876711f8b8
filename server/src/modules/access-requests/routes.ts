import {
  ACCESS_REQUEST_ROUTES,
  AccessRequestListResponse,
  AccessRequestParams,
  AccessRequestResponse,
  CreateAccessRequest,
} from '@portal/contracts/access-requests';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { requireSession } from '../../identity/sessions/guards';
import { createAccessRequest, listOwnAccessRequests, withdrawAccessRequest } from './service';

/** Requests and withdrawals per client address and minute: a person, not a script. */
const CHANGES_PER_MINUTE = 20;

/**
 * A logged-in person's access requests (docs/requirements/staff-accounts.md#end-users): list their own, ask for a
 * further location, withdraw a pending one. The flows are in service.ts.
 */
export const accessRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  const perClient = routeRateLimit({ max: CHANGES_PER_MINUTE, timeWindow: 60_000, key: 'ip' });

  // Reading is not a change: no audit; only the caller's own requests.
  app.get(
    ACCESS_REQUEST_ROUTES.mine,
    { preHandler: requireSession, schema: { response: { 200: AccessRequestListResponse } } },
    async (request) => ({
      data: { requests: await listOwnAccessRequests(serviceContext(request), request.portalSession!.userId) },
    }),
  );

  app.post(
    ACCESS_REQUEST_ROUTES.mine,
    {
      preHandler: requireSession,
      config: {
        audit: { action: 'access-request.create' },
        rateLimit: perClient,
        errors: { 400: ['Provider_Not_Found', 'Location_Already_Linked', 'Access_Request_Pending'] },
      },
      schema: { body: CreateAccessRequest, response: { 201: AccessRequestResponse } },
    },
    async (request, reply) => {
      const created = await createAccessRequest(serviceContext(request), request.portalSession!.userId, request.body);
      return reply.code(201).send({ data: { request: created } });
    },
  );

  app.post(
    ACCESS_REQUEST_ROUTES.withdraw,
    {
      preHandler: requireSession,
      config: {
        audit: { action: 'access-request.withdraw' },
        rateLimit: perClient,
        errors: { 400: ['Access_Request_Not_Pending'], 404: ['Access_Request_Not_Found'] },
      },
      schema: { params: AccessRequestParams, response: { 200: AccessRequestResponse } },
    },
    async (request) => ({
      data: {
        request: await withdrawAccessRequest(serviceContext(request), request.portalSession!.userId, request.params.id),
      },
    }),
  );
};
