import { z } from 'zod/mini';
import type { Assert, SameShape } from './type-checks';
import { UsernameLookupSchema } from './fields';
import { dataEnvelope } from './http';
import { oneTimeCodeSchema, TotpCodeSchema } from './one-time-code';
import { PENDING_LOGIN_STEPS, SESSION_ENDED_CODES, type SessionStateFields } from './response-checks';
export { SESSION_ENDED_CODES, type SessionEndedCode } from './response-checks';

/**
 * Login, second factor and session calls (docs/requirements/session.md, docs/requirements/api.md). Every answer is
 * wrapped in `{ data }`; a failure is the usual `{ errorMessage }` envelope with a code from error-codes.json.
 */

/** Session cookie name over plain HTTP (development, tests). */
export const SESSION_COOKIE = 'portal_session';
/** Session cookie name over HTTPS: the `__Host-` prefix binds it to the host, `Path=/`, `Secure`, no `Domain`. */
export const SESSION_COOKIE_SECURE = '__Host-portal_session';

/** Server defaults (docs/requirements/session.md#server-sessions); both are settings. */
export const SESSION_IDLE_MS_DEFAULT = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS_DEFAULT = 12 * 60 * 60 * 1000;

export const RECOVERY_CODE_COUNT = 10;

/** `POST /api/auth/login` */
export const LoginRequest = z.object({
  username: UsernameLookupSchema,
  // The policy's length rules apply when a password is set, never at login: an old password still logs in.
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});
export type LoginRequest = z.infer<typeof LoginRequest>;
/** After the password: `mfa` = enter a code (or a recovery code), `mfa-enroll` = set up the authenticator first. */
export const LoginNextStep = z.enum(['mfa', 'mfa-enroll']);
export type LoginNextStep = z.infer<typeof LoginNextStep>;
/** Every stage of a login that is not complete yet: the password's next steps and the expired-password change. */
export const PendingLoginStep = z.enum(PENDING_LOGIN_STEPS);
export type PendingLoginStep = z.infer<typeof PendingLoginStep>;
export const LoginResponse = dataEnvelope(z.object({ next: LoginNextStep }));
export type LoginResponse = z.infer<typeof LoginResponse>;

/** A 6-digit TOTP code, or a recovery code; spaces and hyphens are dropped first (one-time-code.ts). */
export const MfaCode = oneTimeCodeSchema(z.minLength(6), z.maxLength(64));

/** `POST /api/auth/mfa` */
export const MfaRequest = z.object({ code: MfaCode });
export type MfaRequest = z.infer<typeof MfaRequest>;
/**
 * The answer of every second-factor step (a TOTP or recovery code, a passkey, the first authenticator setup): logged
 * in, or, when the password is older than the maximum age setting, the session waits for a new password first
 * (`POST /api/auth/password-change`). `passwordMaxAgeDays` is the setting, for the explanation.
 */
export const LoginCompletion = z.union([
  z.object({ loggedIn: z.literal(true) }),
  z.object({
    loggedIn: z.literal(false),
    next: z.literal('password-change'),
    passwordMaxAgeDays: z.number().check(z.int(), z.positive()),
  }),
]);
export type LoginCompletion = z.infer<typeof LoginCompletion>;

export const MfaResponse = dataEnvelope(LoginCompletion);
export type MfaResponse = z.infer<typeof MfaResponse>;

/**
 * `POST /api/auth/mfa/enroll`: without `code` it starts enrolment (a new secret, shown as a QR code and as a manual
 * key); with `code` it confirms the secret, completes the login and returns the recovery codes (shown once).
 */
export const MfaEnrollRequest = z.object({ code: z.optional(TotpCodeSchema) });
export type MfaEnrollRequest = z.infer<typeof MfaEnrollRequest>;
export const MfaEnrollStart = z.object({
  /** `otpauth://totp/...` for authenticator apps. */
  otpauthUrl: z.string(),
  /** The base32 secret, grouped in fours, for typing into an app by hand. */
  secret: z.string(),
  /** The QR code of `otpauthUrl` as an SVG document (render with an `<img src="data:image/svg+xml,...">`). */
  qrSvg: z.string(),
});
export type MfaEnrollStart = z.infer<typeof MfaEnrollStart>;
export const MfaEnrollConfirm = z.intersection(
  z.object({ recoveryCodes: z.array(z.string()).check(z.length(RECOVERY_CODE_COUNT)) }),
  LoginCompletion,
);
export type MfaEnrollConfirm = z.infer<typeof MfaEnrollConfirm>;
export const MfaEnrollStartResponse = dataEnvelope(MfaEnrollStart);
export const MfaEnrollConfirmResponse = dataEnvelope(MfaEnrollConfirm);
export type MfaEnrollStartResponse = z.infer<typeof MfaEnrollStartResponse>;
export type MfaEnrollConfirmResponse = z.infer<typeof MfaEnrollConfirmResponse>;

/**
 * `POST /api/auth/password-change`: the new password of a login whose password has expired (only at the
 * `password-change` stage, after both factors). The policy's length rules are checked by the server with the rest.
 */
export const PasswordChangeRequest = z.object({ newPassword: z.string().check(z.minLength(1), z.maxLength(1024)) });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;
export const PasswordChangeResponse = dataEnvelope(z.object({ loggedIn: z.literal(true) }));
export type PasswordChangeResponse = z.infer<typeof PasswordChangeResponse>;

/** `POST /api/auth/logout`: always succeeds (logging out twice is not an error). */
export const LogoutResponse = dataEnvelope(z.object({ loggedIn: z.literal(false) }));
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** `GET /api/session`: reading it never extends the idle timer. */
export const SessionState = z.object({
  loggedIn: z.boolean(),
  /**
   * Not logged in because someone else ended this browser's session (docs/requirements/session.md#forced-logout): the
   * error code whose CMS text the login page shows. Sent once, with the answer that clears the session cookie.
   */
  endedBecause: z.optional(z.enum(SESSION_ENDED_CODES)),
  username: z.optional(z.string()),
  displayName: z.optional(z.string()),
  /** Seconds until the idle limit ends the session (present when logged in or MFA is pending). */
  idleSecondsLeft: z.optional(z.number()),
  /** Seconds until the absolute limit ends the session. */
  absoluteSecondsLeft: z.optional(z.number()),
  /**
   * The login is not complete: the session waits for the second factor (`mfa`), the authenticator setup
   * (`mfa-enroll`) or, after both factors, a new password for an expired one (`password-change`).
   */
  mfaPending: z.optional(PendingLoginStep),
  /**
   * The user administers a location with a person's access past its recertification date: the web app keeps them on
   * the recertification screen until it is done (docs/requirements/staff-accounts.md#annual-recertification).
   */
  recertificationOverdue: z.optional(z.boolean()),
  /**
   * Logged in and an active administrator of at least one location whose access is not suspended: the header and the
   * portal home link to the console (`/admin`). Absent when not logged in.
   */
  administersLocation: z.optional(z.boolean()),
});
export type SessionState = z.infer<typeof SessionState>;
/** The zod-free check's type (response-checks.ts) has exactly the schema's fields. */
type _SessionStateMatches = Assert<SameShape<SessionState, SessionStateFields>>;
export const SessionResponse = dataEnvelope(SessionState);
export type SessionResponse = z.infer<typeof SessionResponse>;

/** `POST /api/session/extend`: restarts the idle timer of a logged-in session; answers the new state. */
export const SessionExtendResponse = SessionResponse;
export type SessionExtendResponse = SessionResponse;

/** Either answer of `POST /api/auth/mfa/enroll` (start without a code, confirm with one). */
export const MfaEnrollResponse = z.union([MfaEnrollStartResponse, MfaEnrollConfirmResponse]);
export type MfaEnrollResponse = z.infer<typeof MfaEnrollResponse>;
