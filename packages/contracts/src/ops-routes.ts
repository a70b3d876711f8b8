import { adminPath } from './paths';

/**
 * What the help-desk console's pages need on their first screen, without zod (issue 39): its API paths, the sign-in
 * refusals `/ops` is opened with and the search box's limits. `ops.ts` (the schemas, which the web loads when a call
 * is made) re-exports each, so every import path still works.
 */

/** Paths of the console's API (schemas in `ops.ts`). */
export const OPS_ROUTES = {
  /**
   * GET `?returnTo=/ops/…`: starts the directory's sign-in (authorization code with PKCE): 302 to the directory. The
   * browser comes back to `callback`, which opens the console session and redirects to `returnTo` (default `/ops`), or
   * to `/ops?signIn=<reason>` when refused (`OpsSignInRefusal`).
   */
  signIn: '/api/ops/auth/sign-in',
  /** GET: the directory's redirect back (`code`, `state`, `iss`); never called by the console itself. */
  callback: '/api/ops/auth/callback',
  /** POST: ends the console session (the directory's own session stays; `endSessionUrl` ends it too). */
  signOut: '/api/ops/auth/sign-out',
  /** GET: the signed-in operator (401 `Ops_Sign_In_Required` when none). Reading it does not extend the session. */
  session: '/api/ops/session',
  /** POST: "Stay signed in": counts as activity (restarts the idle time) and answers the session as `session` does. */
  keepAlive: '/api/ops/session/keep-alive',
  /** GET `?q=`: find a person (and locations) by username, email, name, NPI or PTAN in one box. */
  search: '/api/ops/search',
  /** GET: a person's page. */
  person: '/api/ops/people/:userId',
  /** POST `{ field }`: the full email or phone, on request (audited). */
  revealPerson: '/api/ops/people/:userId/reveal',
  /** POST `{ reason }`: lift a lockout, including past the daily ceiling (help desk). */
  unlockPerson: '/api/ops/people/:userId/unlock',
  /** POST `{ reason }`: end every session of the person (help desk). */
  endSessions: '/api/ops/people/:userId/end-sessions',
  /** POST `{ reason }`: send the email-verification link again to an unverified account (help desk). */
  resendVerification: '/api/ops/people/:userId/resend-verification',
  /** POST `{ reason, identityChecks }`: reset the second factor after two identity facts were checked (help desk). */
  resetMfa: '/api/ops/people/:userId/reset-mfa',
  /** POST `{ reason }`: disable the account (supervisor). */
  disablePerson: '/api/ops/people/:userId/disable',
  /** POST `{ reason }`: enable a disabled account again (supervisor). */
  enablePerson: '/api/ops/people/:userId/enable',
  /** GET: a location's page. */
  location: '/api/ops/locations/:locationId',
  /**
   * POST `{ reason, userId }`: make a person of the location its administrator when it has no working one, and lift
   * the location's access suspension (supervisor): the only way around the last-administrator rule.
   */
  restoreAdministrator: '/api/ops/locations/:locationId/restore-administrator',
} as const;

/** The query parameter `/ops` is opened with after a refused sign-in (`OpsSignInRefusal`). */
export const OPS_SIGN_IN_REFUSAL_PARAM = 'signIn';

/** A path of `OPS_ROUTES` or `OPS_PAGE_PATHS` with its parameters filled in (the same filling as the admin paths). */
export const opsPath = adminPath;

/** Why a sign-in came back refused (`/ops?signIn=…`); each is also an error code with its message. */
export const opsSignInRefusals = [
  /** The directory's answer failed a check (issuer, audience, nonce, signature, expiry, state) or the user cancelled. */
  'Ops_Sign_In_Failed',
  /** Signed in at the directory, but in none of the groups mapped to a console role. */
  'Ops_No_Role',
  /** The directory did not report multi-factor authentication (`amr`/`acr`) and the setting requires it. */
  'Ops_Mfa_Required',
] as const;

/** The search box: the shortest and longest query. */
export const OPS_QUERY_MIN = 2;
export const OPS_QUERY_MAX = 100;
/** The most people (and locations) one search answers; `truncated` says there were more. */
export const OPS_SEARCH_LIMIT = 25;
