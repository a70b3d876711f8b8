import type { CreateInvitationRequest } from '@portal/contracts/invitations';
import { adminPath } from '@portal/contracts/paths';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { contractCall } from '../../../lib/contract-call';
import { useConsoleOpen } from '../recertification/recertification-api';

// The paths and answers' schemas (zod), loaded when a call is made (lib/contract-call.ts).
const contracts = () => import('@portal/contracts/invitations');

/** Under the console's `['admin']` key, so every console change refreshes it too. */
export const invitationsQueryKey = ['admin', 'invitations'] as const;

/** `GET /api/admin/invitations`: the open invitations of the administrator's locations, and those locations. */
export const invitationsQueryOptions = () =>
  queryOptions({
    queryKey: invitationsQueryKey,
    queryFn: ({ signal }) =>
      contractCall(contracts, (c, request) =>
        request(c.ADMIN_INVITATIONS_PATH, { signal, schema: c.ListInvitationsResponse.shape.data }),
      ),
    // Personal data: never kept once the page is left; the server's answer in the page is not asked again at once.
    gcTime: 0,
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });

export const useInvitations = () => useQuery({ ...invitationsQueryOptions(), enabled: useConsoleOpen() });

/** `POST /api/admin/invitations`: emails the invitation link (403 `Reauthentication_Required` on a stale login). */
export const createInvitation = (body: CreateInvitationRequest) =>
  contractCall(contracts, (c, request) =>
    request(c.ADMIN_INVITATIONS_PATH, { method: 'POST', body, schema: c.CreateInvitationResponse.shape.data }),
  );

/** `POST …/invitations/:invitationId/revoke`: the link stops working. */
export const revokeInvitation = (locationId: string, invitationId: string) =>
  contractCall(contracts, (c, request) =>
    request(adminPath(c.ADMIN_INVITATION_REVOKE_PATH, { locationId, invitationId }), {
      method: 'POST',
      schema: c.RevokeInvitationResponse.shape.data,
    }),
  );
