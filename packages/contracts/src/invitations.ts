import { z } from 'zod/mini';
import { LocationRole } from './admin';
import { EmailSchema } from './fields';
import { dataEnvelope } from './http';
import { oneTimeTokenSchema } from './registration';

/**
 * Invitations (docs/requirements/staff-accounts.md#invitations): an administrator invites a person by email to one of
 * their locations with a role; the emailed link carries its token in the URL fragment, lives 7 days and works once.
 * The token is only ever sent in a request body, never in a URL.
 */

/** `POST`: invite; `GET`: the open invitations of the administrator's locations. */
export const ADMIN_INVITATIONS_PATH = '/api/admin/invitations';
/**
 * `POST`: revoke one open invitation of the location. The location is in the path so that the one admin guard
 * (docs/decisions/0039-admin-guard.md, scope `location`) checks it; the invitation must belong to it.
 */
export const ADMIN_INVITATION_REVOKE_PATH = '/api/admin/locations/:locationId/invitations/:invitationId/revoke';
/** `POST { token }`: what an invitation is for (location name, role, expiry), without using it. */
export const INVITATION_LOOKUP_PATH = '/api/invitations/lookup';
/** `POST { token }`: a logged-in user takes the invitation: the location is linked at once. */
export const INVITATION_ACCEPT_PATH = '/api/invitations/accept';

/** The longest name an invitation carries. */
export const INVITEE_NAME_MAX = 100;

/** How long an invitation's link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** An invitation's token as the link carries it; a missing or malformed one is `Invitation_Invalid`. */
export const InvitationTokenSchema = oneTimeTokenSchema('Invitation_Invalid');

// ——— The administrator's side ———

/** `POST /api/admin/invitations`. */
export const CreateInvitationRequest = z.strictObject({
  locationId: z.uuid(),
  email: EmailSchema,
  role: LocationRole,
  /** The invited person's name, for the email's greeting ("Hello Dana,"); optional. */
  name: z.optional(z.string().check(z.trim(), z.maxLength(INVITEE_NAME_MAX))),
});
export type CreateInvitationRequest = z.input<typeof CreateInvitationRequest>;

export const OpenInvitation = z.object({
  id: z.string(),
  locationId: z.string(),
  locationName: z.string(),
  email: z.string(),
  role: LocationRole,
  /** ISO 8601. */
  createdAt: z.string(),
  expiresAt: z.string(),
  /** The inviting administrator's name, empty when their account is gone. */
  invitedBy: z.string(),
});
export type OpenInvitation = z.infer<typeof OpenInvitation>;

export const CreateInvitationResponse = dataEnvelope(OpenInvitation);
export type CreateInvitationResponse = z.infer<typeof CreateInvitationResponse>;

/** `GET /api/admin/invitations[?locationId=…]`: open (unused, unrevoked, unexpired) invitations, newest first. */
export const ListInvitationsQuery = z.strictObject({ locationId: z.optional(z.uuid()) });
/** A location the caller administers, which the invite dialog offers. */
export const InvitableLocation = z.object({ locationId: z.string(), legalName: z.string(), npi: z.string() });
export type InvitableLocation = z.infer<typeof InvitableLocation>;
/** Also the locations the caller may invite to (all theirs, or the one asked for), by name. */
export const ListInvitationsResponse = dataEnvelope(
  z.object({ invitations: z.array(OpenInvitation), locations: z.array(InvitableLocation) }),
);
export type ListInvitationsResponse = z.infer<typeof ListInvitationsResponse>;

export const InvitationIdParams = z.strictObject({ locationId: z.uuid(), invitationId: z.uuid() });
export const RevokeInvitationResponse = dataEnvelope(z.object({ revoked: z.literal(true) }));

// ——— The invitee's side ———

/** `POST /api/invitations/lookup` and `/accept`. */
export const InvitationTokenRequest = z.strictObject({ token: InvitationTokenSchema });
export type InvitationTokenRequest = z.input<typeof InvitationTokenRequest>;

/**
 * What the invitation page shows: nothing of the inviter. The invited address is told to the holder of the link (it was
 * emailed there), so the registration can fill it in (issue 38 item 10).
 */
export const InvitationSummary = z.object({
  locationName: z.string(),
  email: z.string(),
  role: LocationRole,
  /** ISO 8601. */
  expiresAt: z.string(),
});
export type InvitationSummary = z.infer<typeof InvitationSummary>;
export const InvitationLookupResponse = dataEnvelope(InvitationSummary);
export type InvitationLookupResponse = z.infer<typeof InvitationLookupResponse>;

export const InvitationAcceptResponse = dataEnvelope(
  z.object({ locationId: z.string(), locationName: z.string(), role: LocationRole }),
);
export type InvitationAcceptResponse = z.infer<typeof InvitationAcceptResponse>;
