import { z } from 'zod/mini';
import { dataEnvelope } from './http';
import {
  dateOfBirthSchema,
  EmailSchema,
  localToday,
  noControlCharacters as noControlCharactersRule,
  noControlCharactersExceptLines as noControlCharactersExceptLinesRule,
  SecurityAnswerAttemptSchema,
  UsernameLookupSchema,
  type Today,
} from './fields';
import { NpiSchema, PtanSchema, TinSchema } from './identifiers';
import { oneTimeCodeSchema } from './one-time-code';

/**
 * Login help, find my administrator and DDE access requests (docs/requirements/portal.md#login-help). Requests are
 * strict objects: an unknown field is a 400 `Validation_Failed`. Answers are wrapped in `{ data }`; failures use the
 * usual `{ errorMessage }` envelope with a code from error-codes.json.
 */

export const FORGOT_USERNAME_PATH = '/api/login-help/forgot-username';
export const FORGOT_PASSWORD_PATH = '/api/login-help/forgot-password';
export const RESET_PASSWORD_PATH = '/api/login-help/reset-password';
export const SELF_REACTIVATION_PATH = '/api/users/self-reactivation';
export const FIND_ADMIN_PATH = '/api/locations/public-find-admin';
export const GET_EASI_PATH = '/api/providers/get-easi';
export const DDE_SUBMIT_PATH = '/api/dde-access/submit';
export const DDE_REQUESTS_PATH = '/api/dde-access/requests';

/** The reset link's token lives this long (docs/requirements/portal.md#forgot-password). */
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
/** The emailed reactivation code lives this long. */
export const REACTIVATION_CODE_TTL_MS = 15 * 60 * 1000;
/** Wrong security answers (or codes) accepted per reset link or reactivation before it stops working. */
export const LOGIN_HELP_MAX_WRONG_ANSWERS = 5;

/** Control characters (NUL among them, which PostgreSQL text refuses) never belong in a typed field. */
const noControlCharacters = noControlCharactersRule();
/** Multi-line text: line breaks and tabs allowed, other control characters not. */
const noControlCharactersExceptLines = noControlCharactersExceptLinesRule();

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

// ——— Find my administrator ———

/** `POST /api/locations/public-find-admin`. No match → 404 `Find_Admin_No_Match` (never says which was wrong). */
export const FindAdminRequest = z.strictObject({ npi: NpiSchema, ptan: PtanSchema, tin: TinSchema });
export type FindAdminRequest = z.input<typeof FindAdminRequest>;
export const LocationAdministrator = z.object({
  firstName: z.string(),
  lastName: z.string(),
  /** e.g. `j••••@example.com`: never the full address. */
  maskedEmail: z.string(),
});
export type LocationAdministrator = z.infer<typeof LocationAdministrator>;
/**
 * An empty list: the location exists but nobody has registered as its administrator yet. `contactToken` (only with
 * administrators): the opaque, short-lived handle for "Ask this administrator to contact me" (find-admin.ts).
 */
export const FindAdminResponse = dataEnvelope(
  z.object({ administrators: z.array(LocationAdministrator), contactToken: z.optional(z.string()) }),
);
export type FindAdminResponse = z.infer<typeof FindAdminResponse>;

// ——— DDE access ———

/** The longest comment a DDE access request may carry (the form counts down to it). */
export const DDE_COMMENTS_MAX = 500;

export const ddeAccessTypes = ['inquiry', 'inquiry-and-claims'] as const;
export const DdeAccessType = z.enum(ddeAccessTypes);
export type DdeAccessType = z.infer<typeof DdeAccessType>;
export const ediEnrollmentStatuses = ['active', 'pending', 'inactive'] as const;
export const EdiEnrollmentStatus = z.enum(ediEnrollmentStatuses);
export type EdiEnrollmentStatus = z.infer<typeof EdiEnrollmentStatus>;
export const ddeRequestTypes = ['new', 'change', 'remove'] as const;
export const DdeRequestType = z.enum(ddeRequestTypes);
export type DdeRequestType = z.infer<typeof DdeRequestType>;

/** The location's EDI/DDE enrollment facts ("EASI": electronic access submitter information). */
export const EdiEnrollment = z.object({
  submitterId: z.string(),
  networkServiceVendor: z.string(),
  ddeAccessType: DdeAccessType,
  status: EdiEnrollmentStatus,
});
export type EdiEnrollment = z.infer<typeof EdiEnrollment>;

/**
 * `POST /api/providers/get-easi` (logged in). Without `locationId`: every location the user is linked to; with it:
 * that one only (403 `Dde_Location_Not_Linked` when the user is not linked to it).
 */
export const GetEasiRequest = z.strictObject({ locationId: z.optional(z.uuid()) });
export type GetEasiRequest = z.input<typeof GetEasiRequest>;
export const EasiLocation = z.object({
  locationId: z.string(),
  legalName: z.string(),
  npi: z.string(),
  ptan: z.string(),
  jurisdiction: z.string(),
  lineOfBusiness: z.string(),
  /** null: the location has no EDI enrollment on file (the form starts empty). */
  enrollment: z.nullable(EdiEnrollment),
});
export type EasiLocation = z.infer<typeof EasiLocation>;
export const GetEasiResponse = dataEnvelope(z.object({ locations: z.array(EasiLocation) }));
export type GetEasiResponse = z.infer<typeof GetEasiResponse>;

/** Submitter ids are letters and digits (up to 15). */
const SubmitterId = z.pipe(
  z.pipe(
    z.string(),
    z.transform((v) => v.trim().toUpperCase()),
  ),
  z.string().check(z.regex(/^[A-Z0-9]{1,15}$/, 'Enter the submitter ID: 1 to 15 letters or numbers.')),
);
const ShortText = (max: number) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((v) => v.trim()),
    ),
    z.string().check(z.minLength(1), z.maxLength(max), noControlCharacters),
  );

/**
 * `POST /api/dde-access/submit` (logged in, linked to the location). `idempotencyKey` is generated once per form
 * (a UUID): a retry with the same key answers the first request's reference number and stores nothing new; the same
 * key with different details is 409 `Dde_Idempotency_Conflict`.
 */
export const DdeSubmitRequest = z.strictObject({
  idempotencyKey: z.uuid(),
  locationId: z.uuid(),
  requestType: DdeRequestType,
  ddeAccessType: DdeAccessType,
  submitterId: SubmitterId,
  networkServiceVendor: ShortText(100),
  contactPhone: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((v) => v.replace(/[\s().-]/g, '')),
      ),
      z.string().check(z.regex(/^\+?\d{10,15}$/, 'Enter a phone number of 10 to 15 digits.')),
    ),
  ),
  comments: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((v) => v.trim()),
      ),
      z.string().check(z.maxLength(DDE_COMMENTS_MAX), noControlCharactersExceptLines),
    ),
  ),
});
export type DdeSubmitRequest = z.input<typeof DdeSubmitRequest>;
export const DdeSubmitResponse = dataEnvelope(
  z.object({
    /** e.g. `DDE-2026-000123`. */
    referenceNumber: z.string(),
    submittedAt: z.string(),
  }),
);
export type DdeSubmitResponse = z.infer<typeof DdeSubmitResponse>;

/** How many of the user's DDE requests the list answers, newest first (the portal home shows them). */
export const DDE_REQUEST_LIST_LIMIT = 20;
/** One of the user's own DDE access requests, as the portal home lists it. */
export const DdeRequestSummary = z.object({
  /** e.g. `DDE-2026-000123`. */
  referenceNumber: z.string(),
  /** ISO date-time of the submission. */
  submittedAt: z.string(),
  requestType: DdeRequestType,
  /** The provider location the request is for. */
  legalName: z.string(),
  /** `received` until the EDI team works on it. */
  status: z.string(),
});
export type DdeRequestSummary = z.infer<typeof DdeRequestSummary>;
/** `GET /api/dde-access/requests` (logged in): the user's own requests, newest first, at most `DDE_REQUEST_LIST_LIMIT`. */
export const DdeRequestListResponse = dataEnvelope(z.object({ requests: z.array(DdeRequestSummary) }));
export type DdeRequestListResponse = z.infer<typeof DdeRequestListResponse>;
