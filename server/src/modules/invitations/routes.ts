import {
  ADMIN_INVITATION_REVOKE_PATH,
  ADMIN_INVITATIONS_PATH,
  CreateInvitationRequest,
  CreateInvitationResponse,
  INVITATION_ACCEPT_PATH,
  INVITATION_LOOKUP_PATH,
  InvitationAcceptResponse,
  InvitationIdParams,
  InvitationLookupResponse,
  InvitationTokenRequest,
  ListInvitationsQuery,
  ListInvitationsResponse,
  RevokeInvitationResponse,
} from '@portal/contracts/invitations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { requireRecentAuthentication, requireSession } from '../../identity/sessions/guards';
import { acceptInvitation, createInvitation, listInvitations, lookupInvitation, revokeInvitation } from './service';

/** Lookups and acceptances per client address and minute: a person opening a link, not a script. */
export const INVITATION_ATTEMPTS_PER_MINUTE = 20;

/** The codes a used, withdrawn, expired, unknown or malformed token answers (400). */
const TOKEN_ERRORS = [
  'Invitation_Invalid',
  'Invitation_Used',
  'Invitation_Inviter_Gone',
  'Invitation_Revoked',
  'Invitation_Replaced',
  'Invitation_Expired',
] as const;

/**
 * Invitations (docs/requirements/staff-accounts.md#invitations): the administrator's side under `/api/admin/`
 * (invite, the open invitations, revoke; the admin guard checks the location, a change needs a login younger
 * than the re-authentication window) and the invitee's under `/api/invitations/` (look up, accept when logged
 * in). The token travels in request bodies only. The flows are in service.ts.
 */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  const invitationsPerHour = app.config.invitations.perHour;

  // The admin guard (docs/decisions/0039-admin-guard.md) adds the session check and answers 404 `Not_Found` unless
  // the caller administers the location named by `adminScope`: the handlers do not check again.
  app.post(
    ADMIN_INVITATIONS_PATH,
    {
      preHandler: requireRecentAuthentication,
      config: {
        adminScope: 'body-location',
        audit: { action: 'invitation.sent' },
        rateLimit: routeRateLimit({ max: invitationsPerHour, timeWindow: 3_600_000, key: 'ip' }),
        errors: { 409: ['Invitation_Already_Member'] },
      },
      schema: { body: CreateInvitationRequest, response: { 200: CreateInvitationResponse } },
    },
    async (request) => ({
      data: await createInvitation(serviceContext(request), request.adminGrant!.actorId, request.body),
    }),
  );

  // Reading is not a change: no audit.
  app.get(
    ADMIN_INVITATIONS_PATH,
    {
      config: { adminScope: 'administered' },
      schema: { querystring: ListInvitationsQuery, response: { 200: ListInvitationsResponse } },
    },
    async (request) => ({
      data: await listInvitations(serviceContext(request), request.adminGrant!.actorId, request.adminGrant!.locationId),
    }),
  );

  app.post(
    ADMIN_INVITATION_REVOKE_PATH,
    {
      preHandler: requireRecentAuthentication,
      config: {
        adminScope: 'location',
        audit: { action: 'invitation.revoked' },
        errors: { 404: ['Invitation_Not_Found'] },
      },
      schema: { params: InvitationIdParams, response: { 200: RevokeInvitationResponse } },
    },
    async (request) => {
      await revokeInvitation(serviceContext(request), request.adminGrant!.actorId, request.params);
      return { data: { revoked: true as const } };
    },
  );

  app.post(
    INVITATION_LOOKUP_PATH,
    {
      config: {
        audit: { exempt: 'reads what an invitation is for and changes nothing (POST keeps the token out of URLs)' },
        rateLimit: routeRateLimit({ max: INVITATION_ATTEMPTS_PER_MINUTE, timeWindow: 60_000, key: 'ip' }),
        errors: { 400: [...TOKEN_ERRORS] },
      },
      schema: { body: InvitationTokenRequest, response: { 200: InvitationLookupResponse } },
    },
    async (request) => ({ data: await lookupInvitation(serviceContext(request), request.body.token) }),
  );

  app.post(
    INVITATION_ACCEPT_PATH,
    {
      preHandler: requireSession,
      config: {
        audit: { action: 'invitation.accepted' },
        rateLimit: routeRateLimit({ max: INVITATION_ATTEMPTS_PER_MINUTE, timeWindow: 60_000, key: 'ip' }),
        errors: {
          400: [...TOKEN_ERRORS],
          403: ['Invitation_Email_Mismatch'],
          409: ['Invitation_Already_Member', 'Admin_Limit_Reached'],
        },
      },
      schema: { body: InvitationTokenRequest, response: { 200: InvitationAcceptResponse } },
    },
    async (request) => ({
      data: await acceptInvitation(serviceContext(request), request.portalSession!.userId, request.body.token),
    }),
  );
};
