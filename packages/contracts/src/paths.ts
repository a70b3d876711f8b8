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

/** Pages the server's emails link to; the web's route table routes them (`web/src/config/paths.ts`). */
export const PAGE_PATHS = {
  login: '/login',
  /** The emailed reset link: `#token=…` in the fragment, never the query. */
  resetPassword: '/reset-password',
  /** The emailed verification link (`#token=…`). */
  verifyEmail: '/verify-email',
  /** The link that confirms a new email address (`#token=…`). */
  confirmEmail: '/confirm-email',
  reactivate: '/reactivate',
  /** The administrator's recertification screen (docs/requirements/staff-accounts.md#annual-recertification). */
  recertify: '/admin/recertify',
} as const;

/** An emailed link's path: the page with its one-time token in the fragment (never sent to a server or logged). */
export function tokenLinkPath(page: string, token: string): string {
  return `${page}#token=${encodeURIComponent(token)}`;
}
