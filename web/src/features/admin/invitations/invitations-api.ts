import {
  ADMIN_INVITATION_REVOKE_PATH,
  ADMIN_INVITATIONS_PATH,
  CreateInvitationResponse,
  ListInvitationsResponse,
  RevokeInvitationResponse,
  type CreateInvitationRequest,
} from '@portal/contracts/invitations';
import { adminPath } from '@portal/contracts/paths';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { useConsoleOpen } from '../recertification/recertification-api';

/** Under the console's `['admin']` key, so every console change refreshes it too. */
export const invitationsQueryKey = ['admin', 'invitations'] as const;

/** `GET /api/admin/invitations`: the open invitations of the administrator's locations, and those locations. */
export const invitationsQueryOptions = () =>
  queryOptions({
    queryKey: invitationsQueryKey,
    queryFn: ({ signal }) => apiRequest(ADMIN_INVITATIONS_PATH, { signal, schema: ListInvitationsResponse.shape.data }),
    // Personal data: never kept once the page is left.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

export const useInvitations = () => useQuery({ ...invitationsQueryOptions(), enabled: useConsoleOpen() });

/** `POST /api/admin/invitations`: emails the invitation link (403 `Reauthentication_Required` on a stale login). */
export const createInvitation = (body: CreateInvitationRequest) =>
  apiRequest(ADMIN_INVITATIONS_PATH, { method: 'POST', body, schema: CreateInvitationResponse.shape.data });

/** `POST …/invitations/:invitationId/revoke`: the link stops working. */
export const revokeInvitation = (locationId: string, invitationId: string) =>
  apiRequest(adminPath(ADMIN_INVITATION_REVOKE_PATH, { locationId, invitationId }), {
    method: 'POST',
    schema: RevokeInvitationResponse.shape.data,
  });
