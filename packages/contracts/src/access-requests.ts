import { z } from 'zod/mini';
import { dataEnvelope } from './http';
import { NpiSchema, PtanSchema, TinSchema } from './identifiers';
import { LineOfBusinessSchema, MacJurisdictionSchema } from './jurisdictions';
import { localToday, type Today } from './fields';
import { InvitationTokenSchema } from './invitations';
import { accountChecks, accountFields } from './registration';
import { MAX_REGISTRATION_LOCATIONS } from './field-limits';

/**
 * End users and their requests for access to provider locations (docs/requirements/staff-accounts.md#end-users).
 * Requests are strict objects; every answer is wrapped in `{ data }`.
 */
export const ACCESS_REQUEST_ROUTES = {
  /** `GET`: the caller's own requests; `POST`: ask for access to a further location. */
  mine: '/api/access-requests',
  /** `POST`: withdraw a pending request of the caller's. */
  withdraw: '/api/access-requests/:id/withdraw',
  /** `POST`: the end user's registration (`/register/user`). */
  userRegistration: '/api/user-registration',
} as const;

export { MAX_REGISTRATION_LOCATIONS };

/** A provider location as the person names it: NPI + PTAN + TIN in a jurisdiction and line of business. */
export const LocationIdentifiers = z.strictObject({
  npi: NpiSchema,
  ptan: PtanSchema,
  tin: TinSchema,
  jurisdiction: MacJurisdictionSchema,
  lineOfBusiness: LineOfBusinessSchema,
});
export type LocationIdentifiers = z.input<typeof LocationIdentifiers>;

export const accessRequestStatuses = ['pending', 'approved', 'denied', 'withdrawn'] as const;
export const AccessRequestStatus = z.enum(accessRequestStatuses);
export type AccessRequestStatus = z.infer<typeof AccessRequestStatus>;

/** One of the caller's requests as the portal home lists it. */
export const AccessRequestSummary = z.object({
  id: z.string(),
  status: AccessRequestStatus,
  location: z.object({
    legalName: z.string(),
    npi: z.string(),
    jurisdiction: MacJurisdictionSchema,
    lineOfBusiness: LineOfBusinessSchema,
  }),
  /** ISO timestamps. */
  requestedAt: z.string(),
  decidedAt: z.nullable(z.string()),
  /** The administrator's reason for a denial, when they gave one. */
  reason: z.nullable(z.string()),
});
export type AccessRequestSummary = z.infer<typeof AccessRequestSummary>;

export const AccessRequestListResponse = dataEnvelope(z.object({ requests: z.array(AccessRequestSummary) }));
export type AccessRequestListResponse = z.infer<typeof AccessRequestListResponse>;

/** `POST /api/access-requests` */
export const CreateAccessRequest = LocationIdentifiers;
export type CreateAccessRequest = LocationIdentifiers;
export const AccessRequestResponse = dataEnvelope(z.object({ request: AccessRequestSummary }));
export type AccessRequestResponse = z.infer<typeof AccessRequestResponse>;

/** `POST /api/access-requests/:id/withdraw`: an id that is not a uuid is simply not found. */
export const AccessRequestParams = z.strictObject({ id: z.string().check(z.maxLength(64)) });

/**
 * `POST /api/user-registration`; the server passes its clock as `today` (the date of birth's check). With an
 * administrator's `invitationToken` (docs/requirements/staff-accounts.md#invitations) the invited location is granted
 * at once and further locations are optional; without one, at least one location is asked for.
 */
export const userRegistrationRequest = (today: Today = localToday) =>
  z
    .strictObject({
      ...accountFields(today),
      locations: z
        .array(LocationIdentifiers)
        .check(z.maxLength(MAX_REGISTRATION_LOCATIONS, 'Access_Request_Too_Many_Locations')),
      invitationToken: z.optional(InvitationTokenSchema),
    })
    .check(
      ...accountChecks(),
      z.refine(
        (r: { locations: unknown[]; invitationToken?: string }) => r.locations.length > 0 || !!r.invitationToken,
        {
          message: 'Access_Request_Location_Required',
          path: ['locations'],
        },
      ),
    );
export const UserRegistrationRequest = userRegistrationRequest();
export type UserRegistrationRequest = z.input<typeof UserRegistrationRequest>;

/**
 * The same answer whether or not the email address was already in use (account existence is never revealed), but for
 * one case: `active` when the registration used an invitation sent to that address and the address had no account, so
 * the invitation's link proved it and no verification email is sent (the holder of that link learns it; issue 38
 * item 10).
 */
export const UserRegistrationResponse = dataEnvelope(
  z.object({ registered: z.literal(true), active: z.optional(z.literal(true)) }),
);
export type UserRegistrationResponse = z.infer<typeof UserRegistrationResponse>;
