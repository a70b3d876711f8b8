import { z } from 'zod/mini';
import { noControlCharacters, noControlCharactersExceptLines } from './fields';
import { dataEnvelope } from './http';

/**
 * The administrator's API (docs/requirements/staff-accounts.md#the-administrators-console): the pending access
 * requests of the caller's locations, the people of those locations and the actions on them. Paths are in
 * `paths.ts` (`ADMIN_ROUTES`). Every route needs a logged-in administrator of the target's location: one route-level
 * guard answers 404 `Not_Found`, with no data, to anyone else (docs/decisions/0039-admin-guard.md). Requests are strict
 * objects: an unknown field is a 400 `Validation_Failed`. Every change needs a recent login (403
 * `Reauthentication_Required` after 20 minutes).
 */

/** Rows per page of the requests list and the people search. */
export const ADMIN_PAGE_SIZE = 25;
/** The longest reason a denial may carry (emailed to the requester). */
export const DENY_REASON_MAX = 500;
/** The longest search text. */
export const PEOPLE_QUERY_MAX = 100;

export const locationRoles = ['administrator', 'user'] as const;
export const LocationRole = z.enum(locationRoles);
export type LocationRole = z.infer<typeof LocationRole>;

/** A person's account status (the `users.status` column). */
export const accountStatuses = ['pending', 'active', 'locked', 'disabled_inactive', 'disabled_admin'] as const;
export const AccountStatus = z.enum(accountStatuses);
export type AccountStatus = z.infer<typeof AccountStatus>;

/** A person–location link: `suspended` when not recertified by its date. */
export const linkStatuses = ['active', 'suspended'] as const;
export const LinkStatus = z.enum(linkStatuses);
export type LinkStatus = z.infer<typeof LinkStatus>;

/** ISO 8601 date-time (UTC). */
const IsoDateTime = z.string();

/** Pages count from 1. */
const Page = z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)));

/** Path parameters: the guard reads them before validation (a malformed id is 404, like an unknown one). */
export const AdminRequestParams = z.object({ requestId: z.uuid() });
export const AdminPersonParams = z.object({ userId: z.uuid() });
export const AdminLinkParams = z.object({ locationId: z.uuid(), userId: z.uuid() });
export const AdminLocationParams = z.object({ locationId: z.uuid() });

/** The paging fields of a list answer; `total` counts the caller's locations only. */
const PageInfo = { page: z.number(), pageSize: z.number(), total: z.number(), hasMore: z.boolean() };

// ——— Requests ———

/**
 * `GET /api/admin/requests?page=1[&locationId=…]`: the pending requests of the caller's locations (one of them with
 * `locationId`; 404 when the caller does not administer it), oldest first.
 */
export const AccessRequestListQuery = z.strictObject({ page: Page, locationId: z.optional(z.uuid()) });
export type AccessRequestListQuery = z.input<typeof AccessRequestListQuery>;
export const AdminAccessRequest = z.object({
  requestId: z.string(),
  userId: z.string(),
  /** The requester's first and last name. */
  name: z.string(),
  username: z.string(),
  email: z.string(),
  locationId: z.string(),
  legalName: z.string(),
  npi: z.string(),
  ptan: z.string(),
  requestedAt: IsoDateTime,
});
export type AdminAccessRequest = z.infer<typeof AdminAccessRequest>;
export const AccessRequestListResponse = dataEnvelope(z.object({ items: z.array(AdminAccessRequest), ...PageInfo }));
export type AccessRequestListResponse = z.infer<typeof AccessRequestListResponse>;

/** `POST /api/admin/requests/:requestId/approve`: the role the requester gets at the location. */
export const ApproveAccessRequest = z.strictObject({ role: LocationRole });
export type ApproveAccessRequest = z.input<typeof ApproveAccessRequest>;

/** `POST /api/admin/requests/:requestId/deny`: an optional reason, emailed to the requester. */
export const DenyAccessRequest = z.strictObject({
  reason: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((v) => v.trim()),
      ),
      z.string().check(z.maxLength(DENY_REASON_MAX), noControlCharactersExceptLines()),
    ),
  ),
});
export type DenyAccessRequest = z.input<typeof DenyAccessRequest>;

/**
 * Either decision's answer. A request decided or withdrawn meanwhile is 409 `Access_Request_Not_Pending`; a request of
 * an account whose email is not verified yet is 400 `Access_Request_Unverified`; approving beyond the administrators'
 * limit is 409 `Admin_Limit_Reached`.
 */
export const AccessRequestDecisionResponse = dataEnvelope(
  z.object({ requestId: z.string(), status: z.enum(['approved', 'denied']) }),
);
export type AccessRequestDecisionResponse = z.infer<typeof AccessRequestDecisionResponse>;

// ——— People ———

/**
 * `GET /api/admin/people?q=…&page=1[&locationId=…]`: the people linked to the caller's locations whose name,
 * username or email contains `q` (any case); without `q`, all of them. Sorted by last name, first name, username.
 */
export const PeopleSearchQuery = z.strictObject({
  q: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((v) => v.trim()),
      ),
      z.string().check(z.maxLength(PEOPLE_QUERY_MAX), noControlCharacters()),
    ),
  ),
  page: Page,
  locationId: z.optional(z.uuid()),
});
export type PeopleSearchQuery = z.input<typeof PeopleSearchQuery>;

/** One of the person's links, among the caller's locations only. */
export const PersonLocation = z.object({
  locationId: z.string(),
  legalName: z.string(),
  npi: z.string(),
  role: LocationRole,
  certifiedUntil: IsoDateTime,
  status: LinkStatus,
});
export type PersonLocation = z.infer<typeof PersonLocation>;

export const PersonSummary = z.object({
  userId: z.string(),
  /** First and last name. */
  name: z.string(),
  username: z.string(),
  email: z.string(),
  status: AccountStatus,
  lastLoginAt: z.nullable(IsoDateTime),
  mfaEnrolled: z.boolean(),
  /**
   * The account reached the daily ceiling of wrong passwords (counted across unlocks): only the help desk may unlock
   * it now, so the console offers no Unlock and says why (docs/requirements/session.md#lockout).
   */
  unlockNeedsHelpDesk: z.boolean(),
  /** The person's links to the caller's locations (never another location's). */
  locations: z.array(PersonLocation),
  /**
   * The caller administers every location of the person, so the account-wide actions (disable, enable, unlock, reset
   * the second factor) are theirs; otherwise only "remove from my location" is (403 `Admin_Other_Locations`).
   */
  accountActions: z.boolean(),
  /** The person is the caller: the console offers no action on one's own card (another administrator decides). */
  self: z.boolean(),
});
export type PersonSummary = z.infer<typeof PersonSummary>;
export const PeopleSearchResponse = dataEnvelope(z.object({ items: z.array(PersonSummary), ...PageInfo }));
export type PeopleSearchResponse = z.infer<typeof PeopleSearchResponse>;

/** `GET /api/admin/people/:userId`: a person linked to one of the caller's locations. */
export const PersonDetail = z.extend(PersonSummary, {
  /** The account is locked now (failed logins): `unlock` lifts it. */
  locked: z.boolean(),
  /** Passkeys on the account (a second-factor reset removes them). */
  passkeyCount: z.number(),
  createdAt: IsoDateTime,
});
export type PersonDetail = z.infer<typeof PersonDetail>;
export const PersonDetailResponse = dataEnvelope(PersonDetail);
export type PersonDetailResponse = z.infer<typeof PersonDetailResponse>;

/** `POST /api/admin/locations/:locationId/people/:userId/role`: make (`administrator`) or revoke (`user`). */
export const SetPersonRoleRequest = z.strictObject({ role: LocationRole });
export type SetPersonRoleRequest = z.input<typeof SetPersonRoleRequest>;

/** The other actions (remove from the location; disable, enable, unlock, reset the second factor) take no body. */

/**
 * Every action answers the person as the caller now sees them; `null` when the action left them outside every
 * location of the caller (removed from the last one).
 */
export const PersonActionResponse = dataEnvelope(z.object({ person: z.nullable(PersonDetail) }));
export type PersonActionResponse = z.infer<typeof PersonActionResponse>;
