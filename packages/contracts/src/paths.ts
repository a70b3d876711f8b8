/**
 * Paths both sides spell: the server declares the routes and links to the pages from its emails, the web routes the
 * pages and calls the API. One spelling each (docs/requirements/api.md, docs/requirements/public-site.md#routes).
 */

/** Auth, session and password API paths (docs/requirements/api.md). */
export const AUTH_ROUTES = {
  /** POST `{ username, password }`: the first step of the login. */
  login: '/api/auth/login',
  /** POST `{ code }`: the second factor (authenticator or recovery code). */
  mfa: '/api/auth/mfa',
  /** POST: the first login's authenticator setup; without `code` starts, with `code` confirms. */
  mfaEnroll: '/api/auth/mfa/enroll',
  /** POST `{ newPassword }`: an expired password's replacement, after both factors. */
  passwordChange: '/api/auth/password-change',
  /** POST: ends the session. */
  logout: '/api/auth/logout',
  /** GET: the session's state (never extends it). */
  session: '/api/session',
  /** POST: activity; restarts the idle timer. */
  sessionExtend: '/api/session/extend',
  /** POST: a random password that passes the policy. */
  generatePassword: '/api/password/generate/get',
} as const;

/**
 * The help-desk console's pages (docs/requirements/help-desk.md; the web's route table routes them, the server answers
 * 404 to a provider session on them). Here, not in ops.ts, whose schemas (zod) the web's first download must not carry.
 */
export const OPS_PAGE_PATHS = {
  console: '/ops',
  person: '/ops/people/:userId',
  location: '/ops/locations/:locationId',
} as const;

/** Pages the server's emails link to; the web's route table routes them (`web/src/config/paths.ts`). */
export const PAGE_PATHS = {
  login: '/login',
  /** An administrator's invitation (`#token=…`): docs/requirements/staff-accounts.md#invitations. */
  invitation: '/invitation',
  /** The emailed reset link: `#token=…` in the fragment, never the query. */
  resetPassword: '/reset-password',
  /** The emailed verification link (`#token=…`). */
  verifyEmail: '/verify-email',
  /** The link that confirms a new email address (`#token=…`). */
  confirmEmail: '/confirm-email',
  reactivate: '/reactivate',
  /** The administrator's console (docs/requirements/staff-accounts.md#the-administrators-console). */
  admin: '/admin',
  /** The administrator's recertification screen (docs/requirements/staff-accounts.md#annual-recertification). */
  recertify: '/admin/recertify',
} as const;

/**
 * The URL search parameter of `/admin/recertify` naming the page an administrator with overdue recertifications asked
 * for and was held from (the server's redirect; the web app's own passes it in the history state).
 */
export const HELD_FROM_PARAM = 'held';

/** The URL search parameter naming the step of a multi-step page (`/register?step=authority`). */
export const WIZARD_STEP_PARAM = 'step';

/** A multi-step page's path opened at one of its steps (the reactivation email opens `/reactivate` at its code). */
export function wizardStepPath(page: string, step: string): string {
  return `${page}?${WIZARD_STEP_PARAM}=${encodeURIComponent(step)}`;
}

/** An emailed link's path: the page with its one-time token in the fragment (never sent to a server or logged). */
export function tokenLinkPath(page: string, token: string): string {
  return `${page}#token=${encodeURIComponent(token)}`;
}

/**
 * The administrator's API (docs/requirements/staff-accounts.md#the-administrators-console, schemas in `admin.ts`).
 * Every route under `/api/admin` declares where its target's location comes from (`config.adminScope`): the guard
 * reads `:locationId`, `:requestId` and `:userId` by these names (docs/decisions/0039-admin-guard.md).
 */
export const ADMIN_ROUTES = {
  /** GET `?page=&locationId=`: pending access requests of the caller's locations. */
  requests: '/api/admin/requests',
  /** POST `{ role }`: approve a pending request. */
  approveRequest: '/api/admin/requests/:requestId/approve',
  /** POST `{ reason? }`: deny a pending request. */
  denyRequest: '/api/admin/requests/:requestId/deny',
  /** GET `?q=&page=&locationId=`: people of the caller's locations. */
  people: '/api/admin/people',
  /** GET: one person, with their links to the caller's locations. */
  person: '/api/admin/people/:userId',
  /** POST: disable the account (its sessions end). */
  disablePerson: '/api/admin/people/:userId/disable',
  /** POST: re-enable a disabled account (an administrator's or the inactivity job's). */
  enablePerson: '/api/admin/people/:userId/enable',
  /** POST: lift a lockout. */
  unlockPerson: '/api/admin/people/:userId/unlock',
  /** POST: clear the authenticator and passkeys: the person enrols again at the next login (their sessions end). */
  resetPersonMfa: '/api/admin/people/:userId/reset-mfa',
  /** POST `{ role }`: make or revoke administrator of the location. */
  setPersonRole: '/api/admin/locations/:locationId/people/:userId/role',
  /** POST: remove the person from the location. */
  removePerson: '/api/admin/locations/:locationId/people/:userId/remove',
} as const;

/** A path of `ADMIN_ROUTES` with its parameters filled in. */
export function adminPath(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? `:${name}`));
}
