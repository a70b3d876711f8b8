import {
  AccessRequestDecisionResponse,
  AccessRequestListQuery,
  AccessRequestListResponse,
  AdminLinkParams,
  AdminPersonParams,
  AdminRequestParams,
  ApproveAccessRequest,
  DenyAccessRequest,
  PeopleSearchQuery,
  PeopleSearchResponse,
  PersonActionResponse,
  PersonDetailResponse,
  SetPersonRoleRequest,
} from '@portal/contracts/admin';
import { ADMIN_ROUTES } from '@portal/contracts/paths';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminGrant } from '../../identity/admin-guard';
import { PortalError } from '../../platform/portal-error';
import { serviceContext } from '../../identity/service-context';
import { requireRecentAuthentication } from '../../identity/sessions/guards';
import {
  decideRequest,
  disablePerson,
  enablePerson,
  listPendingRequests,
  personDetail,
  removeFromLocation,
  resetPersonMfa,
  searchPeople,
  setPersonRole,
  unlockPerson,
} from './service';

/** What the guard established (it runs on every route here: identity/admin-guard.ts). */
function grantOf(request: FastifyRequest): AdminGrant {
  if (!request.adminGrant) throw new PortalError(404, 'Not_Found');
  return request.adminGrant;
}

/**
 * The administrator's API (docs/requirements/staff-accounts.md#the-administrators-console). Every route declares its
 * `adminScope`: the guard (docs/decisions/0039-admin-guard.md) checks the session and that the caller administers the
 * target's location before anything else, and answers 404 `Not_Found` otherwise; handlers do not check again. Changes
 * need a recent login (403 `Reauthentication_Required`). Never cached (every `/api/` answer).
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  // ——— Requests ———
  app.get(
    ADMIN_ROUTES.requests,
    {
      config: { adminScope: 'administered' },
      schema: { querystring: AccessRequestListQuery, response: { 200: AccessRequestListResponse } },
    },
    async (request) => ({
      data: await listPendingRequests(serviceContext(request), grantOf(request), request.query.page ?? 1),
    }),
  );

  const decisionErrors = {
    400: ['Access_Request_Unverified'],
    409: ['Access_Request_Not_Pending', 'Admin_Limit_Reached'],
  } as const;
  app.post(
    ADMIN_ROUTES.approveRequest,
    {
      config: { adminScope: 'access-request', audit: { action: 'admin.request.approve' }, errors: decisionErrors },
      preHandler: requireRecentAuthentication,
      schema: {
        params: AdminRequestParams,
        body: ApproveAccessRequest,
        response: { 200: AccessRequestDecisionResponse },
      },
    },
    async (request) => ({
      data: await decideRequest(serviceContext(request), grantOf(request), request.params.requestId, {
        decision: 'approve',
        input: request.body,
      }),
    }),
  );
  app.post(
    ADMIN_ROUTES.denyRequest,
    {
      config: { adminScope: 'access-request', audit: { action: 'admin.request.deny' }, errors: decisionErrors },
      preHandler: requireRecentAuthentication,
      schema: { params: AdminRequestParams, body: DenyAccessRequest, response: { 200: AccessRequestDecisionResponse } },
    },
    async (request) => ({
      data: await decideRequest(serviceContext(request), grantOf(request), request.params.requestId, {
        decision: 'deny',
        input: request.body,
      }),
    }),
  );

  // ——— People ———
  app.get(
    ADMIN_ROUTES.people,
    {
      config: { adminScope: 'administered' },
      schema: { querystring: PeopleSearchQuery, response: { 200: PeopleSearchResponse } },
    },
    async (request) => ({
      data: await searchPeople(serviceContext(request), grantOf(request), {
        q: request.query.q || undefined,
        page: request.query.page ?? 1,
      }),
    }),
  );
  app.get(
    ADMIN_ROUTES.person,
    {
      config: { adminScope: 'person' },
      schema: { params: AdminPersonParams, response: { 200: PersonDetailResponse } },
    },
    async (request) => {
      const person = await personDetail(serviceContext(request), grantOf(request), request.params.userId);
      if (!person) throw new PortalError(404, 'Not_Found');
      return { data: person };
    },
  );

  const linkErrors = { 409: ['Admin_Limit_Reached', 'Last_Administrator'] } as const;
  app.post(
    ADMIN_ROUTES.setPersonRole,
    {
      config: { adminScope: 'link', audit: { action: 'admin.person.role' }, errors: linkErrors },
      preHandler: requireRecentAuthentication,
      schema: { params: AdminLinkParams, body: SetPersonRoleRequest, response: { 200: PersonActionResponse } },
    },
    async (request) => ({
      data: {
        person: await setPersonRole(
          serviceContext(request),
          grantOf(request),
          request.params.userId,
          request.body.role,
        ),
      },
    }),
  );
  app.post(
    ADMIN_ROUTES.removePerson,
    {
      config: { adminScope: 'link', audit: { action: 'admin.person.remove' }, errors: { 409: ['Last_Administrator'] } },
      preHandler: requireRecentAuthentication,
      schema: { params: AdminLinkParams, response: { 200: PersonActionResponse } },
    },
    async (request) => ({
      data: { person: await removeFromLocation(serviceContext(request), grantOf(request), request.params.userId) },
    }),
  );

  // Account-wide actions: the guard admits an administrator of one of the person's locations (scope `person`); the
  // service, under the locations' locks, requires every one of them (403 `Admin_Other_Locations`). Never on oneself.
  const accountActions = [
    [ADMIN_ROUTES.disablePerson, 'admin.person.disable', disablePerson],
    [ADMIN_ROUTES.enablePerson, 'admin.person.enable', enablePerson],
    [ADMIN_ROUTES.unlockPerson, 'admin.person.unlock', unlockPerson],
    [ADMIN_ROUTES.resetPersonMfa, 'admin.person.reset-mfa', resetPersonMfa],
  ] as const;
  for (const [url, action, flow] of accountActions)
    app.post(
      url,
      {
        config: {
          adminScope: 'person',
          audit: { action },
          errors: {
            400: ['Admin_Self_Action'],
            403: ['Admin_Other_Locations'],
            409:
              url === ADMIN_ROUTES.unlockPerson
                ? ['Last_Administrator', 'Unlock_Needs_Help_Desk']
                : ['Last_Administrator'],
          },
        },
        preHandler: requireRecentAuthentication,
        schema: { params: AdminPersonParams, response: { 200: PersonActionResponse } },
      },
      async (request) => ({
        data: { person: await flow(serviceContext(request), grantOf(request), request.params.userId) },
      }),
    );
};
