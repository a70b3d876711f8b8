import { z } from 'zod/mini';
import { AccountStatus, LinkStatus, LocationRole } from './admin';
import { noControlCharacters, noControlCharactersExceptLines } from './fields';
import { dataEnvelope } from './http';
import { OPS_QUERY_MAX, OPS_QUERY_MIN, opsSignInRefusals } from './ops-routes';

/**
 * The contractor's help-desk console (docs/requirements/help-desk.md): contractor staff ("operators") sign in through
 * the enterprise directory (OpenID Connect), never with a portal password, and serve a provider who calls. The console
 * is the page `/ops`; its API is under `/api/ops`, with its own session cookie (path `/api/ops`), which a provider
 * session never opens (404 on every `/ops` page and `/api/ops` route) and which never reaches provider routes.
 *
 * Every `/api/ops` route but sign-in needs an operator session (401 `Ops_Sign_In_Required` without one, 404 with a
 * provider session) with the route's role (403 `Ops_Role_Required`), and writes an audit event with the operator as
 * actor (`operator:<operatorId>`). Requests are strict objects: an unknown field is a 400 `Validation_Failed`.
 */

// Without zod, for the console's first download (issue 39): ops-routes.ts, and the pages in paths.ts.
export { OPS_PAGE_PATHS } from './paths';
export {
  OPS_QUERY_MAX,
  OPS_QUERY_MIN,
  OPS_ROUTES,
  OPS_SEARCH_LIMIT,
  OPS_SIGN_IN_REFUSAL_PARAM,
  opsPath,
  opsSignInRefusals,
} from './ops-routes';

// ——— Operators and their session ———

/**
 * An operator's roles, from the directory's group claim mapped by settings (`OIDC_ROLE_HELP_DESK_GROUPS`,
 * `OIDC_ROLE_SUPERVISOR_GROUPS`). A supervisor may do everything the help desk does, and disable, enable and restore.
 */
export const operatorRoles = ['help_desk', 'supervisor'] as const;
export const OperatorRole = z.enum(operatorRoles);
export type OperatorRole = z.infer<typeof OperatorRole>;

export const OpsSignInRefusal = z.enum(opsSignInRefusals);
export type OpsSignInRefusal = z.infer<typeof OpsSignInRefusal>;

/** `GET /api/ops/auth/sign-in`: where to land after the sign-in; a console path only (anything else is `/ops`). */
export const OpsSignInQuery = z.strictObject({ returnTo: z.optional(z.string().check(z.maxLength(300))) });
export type OpsSignInQuery = z.input<typeof OpsSignInQuery>;

/** `GET /api/ops/auth/callback`: what the directory sends back (the client library checks it). */
export const OpsCallbackQuery = z.object({
  code: z.optional(z.string()),
  state: z.optional(z.string()),
  iss: z.optional(z.string()),
  error: z.optional(z.string()),
  error_description: z.optional(z.string()),
});

const IsoDateTime = z.string();

export const OperatorSession = z.object({
  operatorId: z.string(),
  /** The directory's subject (`sub`). */
  subject: z.string(),
  name: z.string(),
  email: z.string(),
  roles: z.array(OperatorRole),
  /** The session ends at this time unless a console request comes first (15 minutes idle). */
  idleExpiresAt: IsoDateTime,
  /** The session ends at this time whatever the activity. */
  absoluteExpiresAt: IsoDateTime,
});
export type OperatorSession = z.infer<typeof OperatorSession>;
export const OperatorSessionResponse = dataEnvelope(OperatorSession);
export type OperatorSessionResponse = z.infer<typeof OperatorSessionResponse>;

/** `POST /api/ops/auth/sign-out`: `endSessionUrl` signs out of the directory too (null when it offers none). */
export const OpsSignOutResponse = dataEnvelope(z.object({ endSessionUrl: z.nullable(z.string()) }));
export type OpsSignOutResponse = z.infer<typeof OpsSignOutResponse>;

// ——— Find a person ———

/** `GET /api/ops/search?q=`: one box, any of username, email, name (first, last or both), NPI or PTAN. */
export const OpsSearchQuery = z.strictObject({
  q: z.pipe(
    z.pipe(
      z.string(),
      z.transform((v) => v.trim()),
    ),
    z.string().check(z.minLength(OPS_QUERY_MIN), z.maxLength(OPS_QUERY_MAX), noControlCharacters()),
  ),
});
export type OpsSearchQuery = z.input<typeof OpsSearchQuery>;

/** What a hit matched on. */
export const opsMatchKinds = ['username', 'email', 'name', 'npi', 'ptan'] as const;
export const OpsMatchKind = z.enum(opsMatchKinds);

/** A location in short: enough to tell two apart on the phone. */
export const OpsLocationSummary = z.object({
  locationId: z.string(),
  legalName: z.string(),
  npi: z.string(),
  ptan: z.string(),
  jurisdiction: z.string(),
  lineOfBusiness: z.string(),
  state: z.string(),
});
export type OpsLocationSummary = z.infer<typeof OpsLocationSummary>;

export const OpsPersonHit = z.object({
  userId: z.string(),
  name: z.string(),
  username: z.string(),
  /** Masked (`j•••@example.com`); the full address only through `reveal`. */
  email: z.string(),
  status: AccountStatus,
  matchedOn: OpsMatchKind,
  /** The person's locations (at most 5). */
  locations: z.array(OpsLocationSummary),
});
export type OpsPersonHit = z.infer<typeof OpsPersonHit>;

export const OpsSearchResponse = dataEnvelope(
  z.object({
    people: z.array(OpsPersonHit),
    /** Locations whose NPI or PTAN matched (a location without people is still found). */
    locations: z.array(OpsLocationSummary),
    truncated: z.boolean(),
  }),
);
export type OpsSearchResponse = z.infer<typeof OpsSearchResponse>;

// ——— A person's page ———

export const OpsPersonParams = z.strictObject({ userId: z.uuid() });
export const OpsLocationParams = z.strictObject({ locationId: z.uuid() });

/** Why a person cannot get in (or what is pending), most pressing first. */
export const opsStatusReasons = [
  /** Locked after wrong passwords or codes, until `until` (or until unlocked when `until` is null). */
  'locked',
  /** Past the daily ceiling of wrong passwords: only the help desk unlocks it. */
  'locked_help_desk',
  'disabled_inactive',
  'disabled_admin',
  /** The email address was never verified (status `pending`). */
  'unverified',
  /** No second factor yet: the next login enrols an authenticator. */
  'mfa_not_set_up',
  /** Every link to a location is suspended (not recertified) or the person has none. */
  'no_location_access',
] as const;
export const OpsStatusReason = z.object({ code: z.enum(opsStatusReasons), until: z.nullable(IsoDateTime) });
export type OpsStatusReason = z.infer<typeof OpsStatusReason>;

export const OpsPersonLocation = z.extend(OpsLocationSummary, {
  role: LocationRole,
  linkStatus: LinkStatus,
  certifiedUntil: IsoDateTime,
});
export type OpsPersonLocation = z.infer<typeof OpsPersonLocation>;

/** One audit event about the person (as actor or target), newest first; never a secret. */
export const OpsAuditEvent = z.object({
  at: IsoDateTime,
  action: z.string(),
  /** A readable label of the action (the same as My account's activity). */
  label: z.string(),
  outcome: z.enum(['success', 'failure']),
  /** Who acted: the person, an administrator (their username), an operator (their name), or the system. */
  actor: z.string(),
  /** The operator's reason when an operator acted. */
  reason: z.nullable(z.string()),
});
export type OpsAuditEvent = z.infer<typeof OpsAuditEvent>;

export const OpsPerson = z.object({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  /** Masked; `reveal` gives the full value (audited). */
  email: z.string(),
  /** Masked, or null when none. */
  phone: z.nullable(z.string()),
  status: AccountStatus,
  statusReasons: z.array(OpsStatusReason),
  mfa: z.object({
    authenticator: z.boolean(),
    passkeys: z.number(),
    recoveryCodesLeft: z.number(),
  }),
  lastLoginAt: z.nullable(IsoDateTime),
  createdAt: IsoDateTime,
  /** Open (logged-in) sessions, newest first. */
  sessions: z.array(z.object({ createdAt: IsoDateTime, lastSeenAt: IsoDateTime, userAgent: z.nullable(z.string()) })),
  locations: z.array(OpsPersonLocation),
  pendingRequests: z.array(z.object({ requestId: z.string(), location: OpsLocationSummary, requestedAt: IsoDateTime })),
  /** Open invitations sent to the person's email address. */
  invitations: z.array(
    z.object({ location: OpsLocationSummary, role: LocationRole, sentAt: IsoDateTime, expiresAt: IsoDateTime }),
  ),
  /** The latest 50 audit events about the person. */
  auditEvents: z.array(OpsAuditEvent),
});
export type OpsPerson = z.infer<typeof OpsPerson>;
export const OpsPersonResponse = dataEnvelope(OpsPerson);
export type OpsPersonResponse = z.infer<typeof OpsPersonResponse>;

// ——— Actions ———

export const OPS_REASON_MIN = 5;
export const OPS_REASON_MAX = 500;

/** Why the operator acts: recorded in the audit event and shown on the person's page. */
export const OpsReason = z.pipe(
  z.pipe(
    z.string(),
    z.transform((v) => v.trim()),
  ),
  z.string().check(z.minLength(OPS_REASON_MIN), z.maxLength(OPS_REASON_MAX), noControlCharactersExceptLines()),
);

/** `unlock`, `end-sessions`, `resend-verification`, `disable`, `enable`. */
export const OpsActionRequest = z.strictObject({ reason: OpsReason });
export type OpsActionRequest = z.input<typeof OpsActionRequest>;

/**
 * The fixed list of identity facts an operator may check before an MFA reset; two different ones are required. The
 * operator asks the caller and compares with what the portal or the contractor's records hold; the portal records
 * which were checked, never the values.
 */
export const identityChecks = [
  /** The date of birth on the account. */
  'date_of_birth',
  /** The email address on the account (the caller spells it). */
  'email_on_file',
  /** A call back to the phone number on the account. */
  'callback_phone_on_file',
  /** The NPI and PTAN of one of the person's locations. */
  'location_npi_ptan',
  /** A recent paid claim of one of the person's locations (claim number and amount). */
  'recent_paid_claim',
  /** A location administrator of the person's location confirmed who they are. */
  'administrator_confirmed',
] as const;
export const IdentityCheck = z.enum(identityChecks);
export type IdentityCheck = z.infer<typeof IdentityCheck>;

export const OpsResetMfaRequest = z.strictObject({
  reason: OpsReason,
  identityChecks: z.array(IdentityCheck).check(
    z.minLength(2),
    z.maxLength(identityChecks.length),
    z.refine((list) => new Set(list).size === list.length, 'Choose two different facts.'),
  ),
});
export type OpsResetMfaRequest = z.input<typeof OpsResetMfaRequest>;

/** Every person action answers the person's page as it is now. */
export const OpsPersonActionResponse = OpsPersonResponse;
export type OpsPersonActionResponse = OpsPersonResponse;

/** `POST …/reveal`: one sensitive field in full, audited. Never a password, answer, secret or full TIN. */
export const revealableFields = ['email', 'phone'] as const;
export const OpsRevealRequest = z.strictObject({ field: z.enum(revealableFields) });
export type OpsRevealRequest = z.input<typeof OpsRevealRequest>;
export const OpsRevealResponse = dataEnvelope(
  z.object({ field: z.enum(revealableFields), value: z.nullable(z.string()) }),
);
export type OpsRevealResponse = z.infer<typeof OpsRevealResponse>;

// ——— A location's page ———

export const OpsLocation = z.extend(OpsLocationSummary, {
  /** Only the last 4 digits (`•••••1234`). */
  tin: z.string(),
  city: z.string(),
  status: z.string(),
  endDate: z.nullable(z.string()),
  /** Set while its people's access is suspended for want of a certified administrator. */
  accessSuspendedAt: z.nullable(IsoDateTime),
  /** Whether an enabled administrator with a link in force exists (else `restore-administrator` applies). */
  hasWorkingAdministrator: z.boolean(),
  administrators: z.array(
    z.object({
      userId: z.string(),
      name: z.string(),
      username: z.string(),
      status: AccountStatus,
      linkStatus: LinkStatus,
      certifiedUntil: IsoDateTime,
      /** Enabled account, link in force: counts as the location's administrator. */
      working: z.boolean(),
    }),
  ),
  peopleCount: z.number(),
  /** The location's people (first 100 by name): whom a supervisor may restore as administrator. */
  people: z.array(
    z.object({ userId: z.string(), name: z.string(), username: z.string(), role: LocationRole, status: AccountStatus }),
  ),
  /** The data-feed import run that last changed the location (null when made otherwise). */
  importRun: z.nullable(
    z.object({
      id: z.number(),
      kind: z.string(),
      mode: z.string(),
      fileName: z.string(),
      finishedAt: z.nullable(IsoDateTime),
      outcome: z.string(),
    }),
  ),
});
export type OpsLocation = z.infer<typeof OpsLocation>;
export const OpsLocationResponse = dataEnvelope(OpsLocation);
export type OpsLocationResponse = z.infer<typeof OpsLocationResponse>;

/**
 * `POST …/restore-administrator`: `userId` must be linked to the location, with an enabled account (400
 * `Ops_Restore_Person_Invalid` otherwise); 409 `Ops_Location_Has_Administrator` when it has a working one.
 */
export const OpsRestoreAdministratorRequest = z.strictObject({ reason: OpsReason, userId: z.uuid() });
export type OpsRestoreAdministratorRequest = z.input<typeof OpsRestoreAdministratorRequest>;
export const OpsRestoreAdministratorResponse = OpsLocationResponse;
export type OpsRestoreAdministratorResponse = OpsLocationResponse;
