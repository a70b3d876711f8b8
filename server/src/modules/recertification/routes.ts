import {
  RECERTIFICATIONS_PATH,
  RecertificationListResponse,
  RecertificationRequest,
  RecertificationResponse,
} from '@portal/contracts/recertification';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceContext } from '../../identity/service-context';
import { requireRecentAuthentication } from '../../identity/sessions/guards';
import { dueRecertifications, recertify } from './service';

/**
 * Annual recertification (docs/requirements/staff-accounts.md#annual-recertification, docs/decisions/0041): what is
 * due on the caller's locations and the bulk keep-or-remove decisions. A location suspended for want of a current
 * administrator is restored by a help-desk supervisor in the console (docs/requirements/help-desk.md#actions). The flows are in service.ts; the jobs in jobs.ts and access-request-notices.ts.
 */
export const recertificationRoutes: FastifyPluginAsyncZod = async (app) => {
  // Reading is not a change: no audit. The admin guard (scope `administered`) lets administrators in; the service
  // lists only links of the locations they administer now.
  app.get(
    RECERTIFICATIONS_PATH,
    {
      config: { adminScope: 'administered', recertificationRoute: true },
      schema: { response: { 200: RecertificationListResponse } },
    },
    async (request) => ({
      data: { links: await dueRecertifications(serviceContext(request), request.portalSession!.userId) },
    }),
  );

  app.post(
    RECERTIFICATIONS_PATH,
    {
      // The body names links of several locations: the guard admits an administrator, the service checks each link
      // against the locations they administer (all or nothing, 404 otherwise).
      config: {
        adminScope: 'administered',
        recertificationRoute: true,
        audit: { action: 'recertification.submit' },
        errors: { 404: ['Not_Found'], 409: ['Last_Administrator'] },
      },
      preHandler: requireRecentAuthentication,
      schema: { body: RecertificationRequest, response: { 200: RecertificationResponse } },
    },
    async (request) => ({
      data: await recertify(serviceContext(request), request.portalSession!.userId, request.body.decisions),
    }),
  );
};
