import { ApiError } from '../../../lib/api-client';
import { contractCall } from '../../../lib/contract-call';

// The paths and answers' schemas (zod), loaded when a call is made (lib/contract-call.ts).
const contracts = () => import('@portal/contracts/invitations');

/** A malformed token is refused by the request's schema (`Validation_Failed`): to the invitee it is just not valid. */
async function asInvitationError<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'Validation_Failed')
      throw new ApiError(err.status, 'Invitation_Invalid', undefined, err.requestId);
    throw err;
  }
}

/** `POST /api/invitations/lookup`: the location's name, the role and the expiry (the token in the body, never a URL). */
export const lookupInvitation = (token: string) =>
  asInvitationError(
    contractCall(contracts, (c, request) =>
      request(c.INVITATION_LOOKUP_PATH, {
        method: 'POST',
        body: { token },
        schema: c.InvitationLookupResponse.shape.data,
      }),
    ),
  );

/** `POST /api/invitations/accept`: the logged-in user takes the invitation; the location is on the account at once. */
export const acceptInvitation = (token: string) =>
  asInvitationError(
    contractCall(contracts, (c, request) =>
      request(c.INVITATION_ACCEPT_PATH, {
        method: 'POST',
        body: { token },
        schema: c.InvitationAcceptResponse.shape.data,
      }),
    ),
  );
