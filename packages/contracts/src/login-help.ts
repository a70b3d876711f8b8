import { z } from 'zod/mini';
import { dataEnvelope } from './http';
import {
  dateOfBirthSchema,
  EmailSchema,
  localToday,
  SecurityAnswerAttemptSchema,
  UsernameLookupSchema,
  type Today,
} from './fields';
import { oneTimeCodeSchema } from './one-time-code';

/**
 * Login help (docs/requirements/portal.md#login-help): forgot username, forgot password and reset, self-reactivation.
 * Find my administrator is in find-admin.ts, DDE access in dde-access.ts. Requests are strict objects: an unknown field is a 400 `Validation_Failed`. Answers are wrapped in `{ data }`; failures use the
 * usual `{ errorMessage }` envelope with a code from error-codes.json.
 */

export const FORGOT_USERNAME_PATH = '/api/login-help/forgot-username';
export const FORGOT_PASSWORD_PATH = '/api/login-help/forgot-password';
export const RESET_PASSWORD_PATH = '/api/login-help/reset-password';
export const SELF_REACTIVATION_PATH = '/api/users/self-reactivation';

/** The reset link's token lives this long (docs/requirements/portal.md#forgot-password). */
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
/** The emailed reactivation code lives this long. */
export const REACTIVATION_CODE_TTL_MS = 15 * 60 * 1000;
/** Wrong security answers (or codes) accepted per reset link or reactivation before it stops working. */
export const LOGIN_HELP_MAX_WRONG_ANSWERS = 5;

/** A new password: the length rules here, the blocklist and personal words on the server (password-policy.ts). */
const NewPassword = z.string().check(z.minLength(1), z.maxLength(1024));
const SecurityAnswer = SecurityAnswerAttemptSchema;
const Username = UsernameLookupSchema;
/** The `#token=…` of a reset link (base64url). */
const ResetToken = z.string().check(z.minLength(16), z.maxLength(256), z.regex(/^[A-Za-z0-9_-]+$/));
/** The emailed reactivation code as typed: spaces and hyphens are dropped first (one-time-code.ts). */
const ReactivationCode = oneTimeCodeSchema(z.minLength(4), z.maxLength(32));

// ——— Forgot username ———

/**
 * `POST /api/login-help/forgot-username`. The browser sends nothing when `dob` is missing or in the future; the
 * server passes its clock as `today`.
 */
export const forgotUsernameRequest = (today: Today = localToday) =>
  z.strictObject({ email: EmailSchema, dob: dateOfBirthSchema(today) });
export const ForgotUsernameRequest = forgotUsernameRequest();
export type ForgotUsernameRequest = z.input<typeof ForgotUsernameRequest>;
/** The same answer whether or not an account matched: "if an account matches, we emailed its username". */
export const ForgotUsernameResponse = dataEnvelope(z.object({ received: z.literal(true) }));
export type ForgotUsernameResponse = z.infer<typeof ForgotUsernameResponse>;

// ——— Forgot password ———

/** `POST /api/login-help/forgot-password`; `isInternal` comes from the "I am an internal user" choice. */
export const ForgotPasswordRequest = z.strictObject({
  username: Username,
  email: EmailSchema,
  isInternal: z.boolean(),
});
export type ForgotPasswordRequest = z.input<typeof ForgotPasswordRequest>;
/**
 * `check-email`: the same answer whether or not an account matched ("if an account matches, we emailed a link");
 * `enterprise-directory`: internal users reset their password through the enterprise directory (no email sent).
 */
export const ForgotPasswordNext = z.enum(['check-email', 'enterprise-directory']);
export type ForgotPasswordNext = z.infer<typeof ForgotPasswordNext>;
export const ForgotPasswordResponse = dataEnvelope(z.object({ next: ForgotPasswordNext }));
export type ForgotPasswordResponse = z.infer<typeof ForgotPasswordResponse>;

// ——— Reset password (from the emailed link) ———

/**
 * `POST /api/login-help/reset-password` in two calls. `question`: the token → one of the user's security questions
 * (the token stays usable). `set-password`: the token + the answer + the new password → password set, token used,
 * every session of the user ended. An expired, used or unknown token answers 400 `Reset_Token_Invalid`.
 */
export const ResetPasswordRequest = z.discriminatedUnion('step', [
  z.strictObject({ step: z.literal('question'), token: ResetToken }),
  z.strictObject({
    step: z.literal('set-password'),
    token: ResetToken,
    answer: SecurityAnswer,
    newPassword: NewPassword,
  }),
]);
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;
/** `questionId`: the security question's stable key in the CMS list (its text comes from the CMS). */
export const ResetPasswordQuestion = z.object({ questionId: z.string() });
export const ResetPasswordDone = z.object({ passwordChanged: z.literal(true) });
export const ResetPasswordResponse = dataEnvelope(z.union([ResetPasswordQuestion, ResetPasswordDone]));
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>;

// ——— Self-reactivation ———

/**
 * `POST /api/users/self-reactivation` in steps. `request-code`: username + dob → always `enter-code` (a code is
 * emailed to the account's address when the account exists; see docs/requirements/portal.md#self-reactivation).
 * `verify-code` → `answer` with the question to ask; `verify-answer` → `new-password` (nothing consumed yet);
 * `set-password` → `done` (the account is active; the next login still needs the authenticator). A locked or
 * administratively disabled account answers 403 with a code saying whom to contact once the emailed code is given.
 * The server passes its clock as `today` (the date of birth's check).
 */
export const selfReactivationRequest = (today: Today = localToday) =>
  z.discriminatedUnion('step', [
    z.strictObject({ step: z.literal('request-code'), username: Username, dob: dateOfBirthSchema(today) }),
    z.strictObject({ step: z.literal('verify-code'), username: Username, code: ReactivationCode }),
    z.strictObject({
      step: z.literal('verify-answer'),
      username: Username,
      code: ReactivationCode,
      answer: SecurityAnswer,
    }),
    z.strictObject({
      step: z.literal('set-password'),
      username: Username,
      code: ReactivationCode,
      answer: SecurityAnswer,
      newPassword: NewPassword,
    }),
  ]);
export const SelfReactivationRequest = selfReactivationRequest();
export type SelfReactivationRequest = z.input<typeof SelfReactivationRequest>;
export const SelfReactivationNext = z.enum(['enter-code', 'answer', 'new-password', 'done']);
export type SelfReactivationNext = z.infer<typeof SelfReactivationNext>;
export const SelfReactivationResponse = dataEnvelope(
  z.object({
    next: SelfReactivationNext,
    /** With `answer`: the security question's stable key in the CMS list. */
    questionId: z.optional(z.string()),
  }),
);
export type SelfReactivationResponse = z.infer<typeof SelfReactivationResponse>;
