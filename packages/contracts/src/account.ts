import { z } from 'zod/mini';
import { LoginCompletion, MfaEnrollStart, RECOVERY_CODE_COUNT } from './auth';
import { dataEnvelope } from './http';
import { EmailSchema, PhoneSchema, SecurityQuestionsSchema } from './fields';
import { EMAIL_VERIFY_TTL_MS, oneTimeTokenSchema } from './registration';
import { TotpCodeSchema } from './one-time-code';
import { PASSKEY_NAME_MAX } from './field-limits';

/**
 * My account, passkeys and re-authentication (docs/requirements/session.md, docs/requirements/api.md). Every answer is
 * wrapped in `{ data }`; a failure is the usual `{ errorMessage }` envelope with a code from error-codes.json. Every
 * call except the passkey login steps needs a logged-in session (401 `Not_Logged_In` / `Session_Expired` otherwise).
 */

/** Route paths. `:id` is a passkey's id as listed by `GET /api/account/passkeys`. */
export const ACCOUNT_ROUTES = {
  /** GET: the profile, second factors and provider locations. */
  account: '/api/account',
  /** POST: change the password (needs a recent login). */
  password: '/api/account/password',
  /** POST `{ email }`: ask to change the email address (needs a recent login); a link goes to the new address. */
  email: '/api/account/email',
  /** POST `{ token }`, logged in or not: the link's token; the address it was sent to becomes the account's. */
  emailConfirm: '/api/account/email/confirm',
  /** POST `{ phone }`: change the phone number (needs a recent login). */
  phone: '/api/account/phone',
  /** POST `{ securityQuestions }`: replace the three security questions and answers (needs a recent login). */
  securityAnswers: '/api/account/security-answers',
  /** POST: replace the authenticator app (needs a recent login); without `code` starts, with `code` confirms. */
  mfaReset: '/api/account/mfa/reset',
  /** POST: 10 new recovery codes replace the old ones (needs a recent login); answered once, to show. */
  recoveryCodes: '/api/account/recovery-codes',
  /** GET: the user's active sessions. */
  sessions: '/api/account/sessions',
  /** POST: sign out everywhere else. */
  endOtherSessions: '/api/account/sessions/end-others',
  /** GET `?page=1`: recent account activity, newest first. */
  activity: '/api/account/activity',
  /** GET: the user's passkeys. */
  passkeys: '/api/account/passkeys',
  /** POST: options for `navigator.credentials.create` (needs a recent login). */
  passkeyRegistrationOptions: '/api/account/passkeys/registration-options',
  /** POST: verify the new credential and store it (needs a recent login). */
  passkeyRegistration: '/api/account/passkeys/registration',
  /** POST `{ name }`: rename a passkey. */
  passkeyRename: '/api/account/passkeys/:id/rename',
  /** POST: remove a passkey (needs a recent login). */
  passkeyRemove: '/api/account/passkeys/:id/remove',
  /** POST `{ password }`: refresh the login time so the changes above are allowed again. */
  reauthenticate: '/api/auth/reauthenticate',
  /** POST, session at the MFA step: options for `navigator.credentials.get` (the user's passkeys only). */
  passkeyLoginOptions: '/api/auth/passkey/options',
  /** POST, session at the MFA step: verify the assertion; success completes the login like a TOTP code. */
  passkeyLogin: '/api/auth/passkey',
} as const;

/** The path of a passkey route for one passkey. */
export function passkeyRoute(
  route: '/api/account/passkeys/:id/rename' | '/api/account/passkeys/:id/remove',
  id: string,
) {
  return route.replace(':id', encodeURIComponent(id));
}

/** Default of the re-authentication window (a setting): changes to the account need a login younger than this. */
export const REAUTHENTICATION_WINDOW_MS_DEFAULT = 20 * 60 * 1000;
export { PASSKEY_LIMIT, PASSKEY_NAME_MAX } from './field-limits';
export const ACTIVITY_PAGE_SIZE = 20;
/** The link that confirms a new email address works once and as long as a registration's verification link. */
export const EMAIL_CHANGE_TTL_MS = EMAIL_VERIFY_TTL_MS;

const IsoDateTime = z.string();

// ---- Re-authentication ----

/** `POST /api/auth/reauthenticate`: a wrong password answers 400 `Login_Failed` and counts toward the lockout. */
export const ReauthenticateRequest = z.object({ password: z.string().check(z.minLength(1), z.maxLength(1024)) });
export type ReauthenticateRequest = z.infer<typeof ReauthenticateRequest>;
export const RecentAuthentication = z.object({
  /** Seconds during which account changes are allowed without asking for the password again (0 = ask now). */
  recentAuthenticationSecondsLeft: z.number(),
});
export type RecentAuthentication = z.infer<typeof RecentAuthentication>;
export const ReauthenticateResponse = dataEnvelope(RecentAuthentication);
export type ReauthenticateResponse = z.infer<typeof ReauthenticateResponse>;

// ---- My account ----

export const AccountLocation = z.object({
  legalName: z.string(),
  jurisdiction: z.string(),
  lineOfBusiness: z.string(),
  /** e.g. `*****6789`: only the last four digits (`maskTin`). */
  tinMasked: z.string(),
  role: z.enum(['administrator', 'user']),
  /**
   * The day (YYYY-MM-DD) the location ended, once the provider-enrollment feed end-dated it and that day has come;
   * null while it is in force (docs/requirements/data-feeds.md#end-dated-locations).
   */
  endedOn: z.nullable(z.string()),
});
export type AccountLocation = z.infer<typeof AccountLocation>;

export const AccountMfa = z.object({
  /** When the authenticator app was confirmed (null = not enrolled yet). */
  authenticatorEnrolledAt: z.nullable(IsoDateTime),
  passkeyCount: z.number(),
  recoveryCodesLeft: z.number(),
});
export type AccountMfa = z.infer<typeof AccountMfa>;

/** `GET /api/account` */
export const Account = z.object({
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** e.g. `***-***-4567`; null when no phone is on file. */
  phoneMasked: z.nullable(z.string()),
  status: z.string(),
  lastLoginAt: z.nullable(IsoDateTime),
  passwordChangedAt: IsoDateTime,
  mfa: AccountMfa,
  locations: z.array(AccountLocation),
  /** The keys of the user's three security questions (their text comes from the CMS); never an answer. */
  securityQuestionIds: z.array(z.string()),
  recentAuthenticationSecondsLeft: z.number(),
});
export type Account = z.infer<typeof Account>;
export const AccountResponse = dataEnvelope(Account);
export type AccountResponse = z.infer<typeof AccountResponse>;

/**
 * `POST /api/account/password`: the new password follows the shared policy (password-policy.ts). A wrong current
 * password answers 400 `Current_Password_Invalid` (and counts toward the lockout); other sessions end, this one stays.
 */
export const ChangePasswordRequest = z.object({
  currentPassword: z.string().check(z.minLength(1), z.maxLength(1024)),
  newPassword: z.string().check(z.minLength(1), z.maxLength(1024)),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
export const ChangePasswordResponse = dataEnvelope(
  z.object({ changed: z.literal(true), otherSessionsEnded: z.number() }),
);
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponse>;

/**
 * `POST /api/account/mfa/reset`: without `code` it starts (a new secret, answered like the first enrolment); with
 * `code` it confirms it, replaces the old authenticator and answers 10 new recovery codes (shown once).
 */
export const MfaResetRequest = z.object({ code: z.optional(TotpCodeSchema) });
export type MfaResetRequest = z.infer<typeof MfaResetRequest>;
export const MfaResetConfirm = z.object({
  recoveryCodes: z.array(z.string()).check(z.length(RECOVERY_CODE_COUNT)),
  otherSessionsEnded: z.number(),
});
export type MfaResetConfirm = z.infer<typeof MfaResetConfirm>;
export const MfaResetStartResponse = dataEnvelope(MfaEnrollStart);
export const MfaResetConfirmResponse = dataEnvelope(MfaResetConfirm);
export type MfaResetStartResponse = z.infer<typeof MfaResetStartResponse>;
export type MfaResetConfirmResponse = z.infer<typeof MfaResetConfirmResponse>;
export const MfaResetResponse = z.union([MfaResetStartResponse, MfaResetConfirmResponse]);

/** `POST /api/account/recovery-codes`: the 10 new codes, shown once (the old ones stop working). */
export const RecoveryCodesResponse = dataEnvelope(
  z.object({ recoveryCodes: z.array(z.string()).check(z.length(RECOVERY_CODE_COUNT)) }),
);
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;
export type MfaResetResponse = z.infer<typeof MfaResetResponse>;

/**
 * `POST /api/account/email`: the new address under the registration's rule. The answer is the same whether or not
 * another account uses the address (that account's owner gets a notice instead of a link, and is not told who
 * asked); the current address is told that a change was asked for. 400 `Email_Unchanged` for the current address.
 */
export const ChangeEmailRequest = z.strictObject({ email: EmailSchema });
export type ChangeEmailRequest = z.input<typeof ChangeEmailRequest>;
export const ChangeEmailResponse = dataEnvelope(z.object({ requested: z.literal(true) }));
export type ChangeEmailResponse = z.infer<typeof ChangeEmailResponse>;

/**
 * `POST /api/account/email/confirm`: the token from the link's fragment (`/confirm-email#token=…`). 400
 * `Email_Change_Link_Invalid` for an unknown, used, expired or replaced link.
 */
export const ConfirmEmailChangeRequest = z.strictObject({ token: oneTimeTokenSchema('Email_Change_Link_Invalid') });
export type ConfirmEmailChangeRequest = z.input<typeof ConfirmEmailChangeRequest>;
export const ConfirmEmailChangeResponse = dataEnvelope(z.object({ changed: z.literal(true) }));
export type ConfirmEmailChangeResponse = z.infer<typeof ConfirmEmailChangeResponse>;

/** `POST /api/account/phone`: the registration's phone rule (10 US digits, stored as the digits). */
export const ChangePhoneRequest = z.strictObject({ phone: PhoneSchema });
export type ChangePhoneRequest = z.input<typeof ChangePhoneRequest>;
export const ChangePhoneResponse = dataEnvelope(z.object({ phoneMasked: z.string() }));
export type ChangePhoneResponse = z.infer<typeof ChangePhoneResponse>;

/** `POST /api/account/security-answers`: three different CMS questions (by `key`) and answers, as at registration. */
export const ChangeSecurityAnswersRequest = z.strictObject({ securityQuestions: SecurityQuestionsSchema });
export type ChangeSecurityAnswersRequest = z.input<typeof ChangeSecurityAnswersRequest>;
export const ChangeSecurityAnswersResponse = dataEnvelope(z.object({ changed: z.literal(true) }));
export type ChangeSecurityAnswersResponse = z.infer<typeof ChangeSecurityAnswersResponse>;

/** `GET /api/account/sessions` */
export const AccountSession = z.object({
  createdAt: IsoDateTime,
  lastSeenAt: IsoDateTime,
  ip: z.nullable(z.string()),
  /** A readable browser and system, e.g. `Chrome 131 on Windows`; `Unknown browser` when it cannot be told. */
  browser: z.string(),
  /** This is the session making the call. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSession>;
export const AccountSessionsResponse = dataEnvelope(z.object({ sessions: z.array(AccountSession) }));
export type AccountSessionsResponse = z.infer<typeof AccountSessionsResponse>;

/** `POST /api/account/sessions/end-others` */
export const EndOtherSessionsResponse = dataEnvelope(z.object({ ended: z.number() }));
export type EndOtherSessionsResponse = z.infer<typeof EndOtherSessionsResponse>;

/** `GET /api/account/activity?page=1` (pages count from 1). */
export const ActivityQuery = z.object({
  page: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1000))),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;
export const ActivityItem = z.object({
  at: IsoDateTime,
  /** The audit action code, e.g. `password_change`. */
  action: z.string(),
  /** The action in words, e.g. `Password changed`. */
  description: z.string(),
  outcome: z.enum(['success', 'failure']),
  ip: z.nullable(z.string()),
});
export type ActivityItem = z.infer<typeof ActivityItem>;
export const ActivityResponse = dataEnvelope(
  z.object({ items: z.array(ActivityItem), page: z.number(), pageSize: z.number(), hasMore: z.boolean() }),
);
export type ActivityResponse = z.infer<typeof ActivityResponse>;

// ---- Passkeys ----

/** A passkey as listed on My account. */
export const Passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: IsoDateTime,
  lastUsedAt: z.nullable(IsoDateTime),
  /** Synced between devices (backed up) rather than bound to one. */
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof Passkey>;
export const PasskeyListResponse = dataEnvelope(z.object({ passkeys: z.array(Passkey) }));
export type PasskeyListResponse = z.infer<typeof PasskeyListResponse>;

const PasskeyName = z.string().check(z.trim(), z.minLength(1), z.maxLength(PASSKEY_NAME_MAX));

/**
 * WebAuthn options as JSON, handed unchanged to `@simplewebauthn/browser` (`startRegistration({ optionsJSON })`,
 * `startAuthentication({ optionsJSON })`). Only `challenge` is checked here; the browser library types the rest.
 */
export const WebAuthnOptionsJson = z.looseObject({ challenge: z.string() });
export type WebAuthnOptionsJson = z.infer<typeof WebAuthnOptionsJson>;

/** The credential returned by `startRegistration` / `startAuthentication`, sent back unchanged. */
export const WebAuthnCredentialJson = z.looseObject({
  id: z.string().check(z.minLength(1), z.maxLength(1024)),
  rawId: z.string().check(z.minLength(1), z.maxLength(1024)),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().check(z.minLength(1), z.maxLength(16_384)) }),
  clientExtensionResults: z.optional(z.looseObject({})),
  authenticatorAttachment: z.optional(z.string()),
});
export type WebAuthnCredentialJson = z.infer<typeof WebAuthnCredentialJson>;

/** `POST /api/account/passkeys/registration-options` */
export const PasskeyRegistrationOptionsResponse = dataEnvelope(WebAuthnOptionsJson);
export type PasskeyRegistrationOptionsResponse = z.infer<typeof PasskeyRegistrationOptionsResponse>;

/** `POST /api/account/passkeys/registration`: a refused credential answers 400 `Passkey_Verification_Failed`. */
export const PasskeyRegistrationRequest = z.object({ name: PasskeyName, credential: WebAuthnCredentialJson });
export type PasskeyRegistrationRequest = z.infer<typeof PasskeyRegistrationRequest>;
export const PasskeyRegistrationResponse = dataEnvelope(z.object({ passkey: Passkey }));
export type PasskeyRegistrationResponse = z.infer<typeof PasskeyRegistrationResponse>;

/** `POST /api/account/passkeys/:id/rename` */
export const PasskeyRenameRequest = z.object({ name: PasskeyName });
export type PasskeyRenameRequest = z.infer<typeof PasskeyRenameRequest>;
export const PasskeyRenameResponse = dataEnvelope(z.object({ passkey: Passkey }));
export type PasskeyRenameResponse = z.infer<typeof PasskeyRenameResponse>;

/** `POST /api/account/passkeys/:id/remove` */
export const PasskeyRemoveResponse = dataEnvelope(z.object({ removed: z.literal(true) }));
export type PasskeyRemoveResponse = z.infer<typeof PasskeyRemoveResponse>;

/** `POST /api/auth/passkey/options`: 400 `Passkey_None_Registered` when the user has no passkey. */
export const PasskeyLoginOptionsResponse = dataEnvelope(WebAuthnOptionsJson);
export type PasskeyLoginOptionsResponse = z.infer<typeof PasskeyLoginOptionsResponse>;

/** `POST /api/auth/passkey`: success answers like `POST /api/auth/mfa`. */
export const PasskeyLoginRequest = z.object({ credential: WebAuthnCredentialJson });
export type PasskeyLoginRequest = z.infer<typeof PasskeyLoginRequest>;
export const PasskeyLoginResponse = dataEnvelope(LoginCompletion);
export type PasskeyLoginResponse = z.infer<typeof PasskeyLoginResponse>;
