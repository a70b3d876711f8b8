import { z } from 'zod/mini';
import { dataEnvelope } from './http';
import { ClaimNumberSchema, MbiSchema, NpiSchema, PtanSchema, TinSchema } from './identifiers';
import { LineOfBusinessSchema, MacJurisdictionSchema } from './jurisdictions';
import {
  dateOfBirthSchema,
  EmailSchema,
  emailKey,
  localToday,
  pastDateSchema,
  PhoneSchema,
  SecurityQuestionsSchema,
  UsernameSchema,
  type Today,
} from './fields';
import { PasswordSchema, personalWords } from './password-policy';

// The shared field rules, re-exported for the importers of this file (docs/decisions/0031-field-rules.md).
export {
  DATE_MAX,
  DATE_MIN,
  DobSchema,
  EmailSchema,
  isIsoDateInRange,
  isoDateSchema,
  PhoneSchema,
  SECURITY_QUESTION_COUNT,
  SecurityAnswerSchema,
  SecurityQuestionAnswer,
  SecurityQuestionKey,
  SecurityQuestionsSchema,
  USERNAME_PATTERN,
  UsernameSchema,
} from './fields';

/**
 * Administrator registration (docs/requirements/portal.md#provider-validation, #authority-validation,
 * #administrator-self-registration, #email-verification). Every request is a strict object: unknown fields are
 * rejected. Field-error messages are error codes (looked up like `errorMessage`) or, for identifiers, the sentence
 * to show. Every answer is wrapped in `{ data }`.
 */
export const REGISTRATION_ROUTES = {
  validateProvider: '/api/locations/validate/provider',
  validateAuthority: '/api/locations/validate/authority',
  selfRegistration: '/api/admin-self-registration',
  verifyEmail: '/api/auth/verify-email',
  resendVerification: '/api/auth/verify-email/resend',
} as const;

/** Lifetimes of the tokens the steps hand on (server defaults). */
export const VALIDATION_TOKEN_TTL_MS = 15 * 60 * 1000;
export const REGISTRATION_TOKEN_TTL_MS = 30 * 60 * 1000;
/** Unverified registrations are deleted after this long and free their location. */
export const EMAIL_VERIFY_TTL_MS = 72 * 60 * 60 * 1000;

const MAX_TOKEN_LENGTH = 512;
/** A one-time token as the emailed links and the steps hand it on; `message` is the code for a missing or bad one. */
export const oneTimeTokenSchema = (message: string) =>
  z.string({ error: message }).check(z.minLength(16, message), z.maxLength(MAX_TOKEN_LENGTH, message));

// ---------------------------------------------------------------------------------------------------------------
// Step 1: provider validation

/** `POST /api/locations/validate/provider` */
export const ValidateProviderRequest = z.strictObject({
  npi: NpiSchema,
  ptan: PtanSchema,
  tin: TinSchema,
  jurisdiction: MacJurisdictionSchema,
  lineOfBusiness: LineOfBusinessSchema,
  /** `true`: the answer carries the matched location's summary for the user to confirm. */
  passthroughResponse: z.optional(z.boolean()),
});
export type ValidateProviderRequest = z.input<typeof ValidateProviderRequest>;

export const LocationSummary = z.object({
  legalName: z.string(),
  jurisdiction: MacJurisdictionSchema,
  lineOfBusiness: LineOfBusinessSchema,
  /** Only the last four digits, e.g. `*****6789` (`maskTin`). */
  maskedTin: z.string(),
});
export type LocationSummary = z.infer<typeof LocationSummary>;

export const ValidateProviderResponse = dataEnvelope(
  z.object({
    success: z.literal(true),
    /** Sent back by the authority step; bound to the matched location; expires after VALIDATION_TOKEN_TTL_MS. */
    validationToken: z.string(),
    expiresAt: z.string(),
    /** Present when the request said `passthroughResponse: true`. */
    location: z.optional(LocationSummary),
  }),
);
export type ValidateProviderResponse = z.infer<typeof ValidateProviderResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Step 2: authority validation

export const financialLookupSelectors = ['patient', 'check', 'claim'] as const;
export const FinancialLookupSelector = z.enum(financialLookupSelectors);
export type FinancialLookupSelector = z.infer<typeof FinancialLookupSelector>;

/** Check or EFT number as printed on the remittance: 4 to 20 letters or digits (spaces and dashes ignored). */
export const CheckNumberSchema = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value: string) => value.replace(/[\s-]/g, '').toUpperCase()),
  ),
  z.string().check(z.regex(/^[A-Z0-9]{4,20}$/, 'Enter the check or EFT number: 4 to 20 letters or numbers.')),
);

export const DATE_OF_SERVICE_MESSAGE = 'Enter the date of service as a date from 01/01/1900 to 12/31/2099.';
export const DATE_OF_SERVICE_FUTURE_MESSAGE =
  'The date of service cannot be in the future. Enter the date the patient was seen.';
const VALIDATION_TOKEN_MESSAGE = 'Check your provider details again: go back to the first step.';

const authorityCommon = {
  npi: NpiSchema,
  validationToken: oneTimeTokenSchema(VALIDATION_TOKEN_MESSAGE),
  passthroughResponse: z.optional(z.boolean()),
};

/**
 * `POST /api/locations/validate/authority`: the facts depend on `financialLookupSelector`. A date of service after
 * `today()` is refused by the schema, so it never costs one of the location's attempts (the server passes its clock).
 */
export const validateAuthorityRequest = (today: Today = localToday) =>
  z.discriminatedUnion('financialLookupSelector', [
    z.strictObject({
      ...authorityCommon,
      financialLookupSelector: z.literal('patient'),
      patientMbi: MbiSchema,
      dateOfService: pastDateSchema(
        { invalid: DATE_OF_SERVICE_MESSAGE, future: DATE_OF_SERVICE_FUTURE_MESSAGE },
        today,
      ),
    }),
    z.strictObject({ ...authorityCommon, financialLookupSelector: z.literal('check'), checkNumber: CheckNumberSchema }),
    z.strictObject({ ...authorityCommon, financialLookupSelector: z.literal('claim'), claimNumber: ClaimNumberSchema }),
  ]);
export const ValidateAuthorityRequest = validateAuthorityRequest();
export type ValidateAuthorityRequest = z.input<typeof ValidateAuthorityRequest>;

/**
 * The step passes only on `success: true`. Failures are HTTP errors whose `errorMessage` is a readable sentence
 * (the page shows it as it is), not a code.
 */
export const ValidateAuthorityResponse = dataEnvelope(
  z.object({
    success: z.boolean(),
    /** Single use, bound to the location, expires after REGISTRATION_TOKEN_TTL_MS. */
    registrationToken: z.optional(z.string()),
  }),
);
export type ValidateAuthorityResponse = z.infer<typeof ValidateAuthorityResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Step 3: administrator self-registration

const trimmed = (code: string, max: number) =>
  z.pipe(
    z.pipe(
      z.string({ error: code }),
      z.transform((value: string) => value.trim().replace(/\s+/g, ' ')),
    ),
    z.string().check(z.minLength(1, code), z.maxLength(max, code)),
  );

/**
 * The account fields every self-registration asks for (administrator and end user): name, email twice, phone, date of
 * birth, username, password, security answers. The server passes its clock as `today` (the date of birth's check).
 */
export const accountFields = (today: Today = localToday) => ({
  firstName: trimmed('First_Name_Invalid', 50),
  lastName: trimmed('Last_Name_Invalid', 50),
  email: EmailSchema,
  emailConfirmation: z.string({ error: 'Email_Mismatch' }),
  phone: PhoneSchema,
  dob: dateOfBirthSchema(today),
  username: UsernameSchema,
  password: PasswordSchema,
  securityQuestions: SecurityQuestionsSchema,
});

interface AccountValues {
  firstName: string;
  lastName: string;
  email: string;
  emailConfirmation: string;
  username: string;
  password: string;
}

/** The fields a check across fields reads, as typed: strings (whatever other field failed). */
function stringsIn(value: unknown, fields: readonly string[]): value is Record<string, string> {
  return typeof value === 'object' && value !== null && fields.every((f) => typeof (value as never)[f] === 'string');
}
const emailFields = ['email', 'emailConfirmation'] as const;
const personalFields = ['firstName', 'lastName', 'username', 'email', 'password'] as const;

/**
 * The checks across the account fields: the confirmed email, a password free of the person's own words. They run
 * even when another field failed (zod skips a check after an aborting issue unless `when` says otherwise), so one
 * submit shows every problem instead of two rounds.
 */
export const accountChecks = () => [
  z.refine<AccountValues>((r) => emailKey(r.emailConfirmation) === emailKey(r.email), {
    message: 'Email_Mismatch',
    path: ['emailConfirmation'],
    when: (payload) => stringsIn(payload.value, emailFields),
  }),
  // The blocklist is checked by the server (and lazily by the form); the personal words need no list.
  z.refine<AccountValues>(
    (r) => {
      const normal = r.password.toLowerCase();
      return !personalWords([r.firstName, r.lastName, r.username, r.email]).some((w) => normal.includes(w));
    },
    {
      message: 'Password_Contains_Personal_Info',
      path: ['password'],
      when: (payload) => stringsIn(payload.value, personalFields),
    },
  ),
];

/** `POST /api/admin-self-registration`; the server passes its clock as `today` (the date of birth's check). */
export const selfRegistrationRequest = (today: Today = localToday) =>
  z
    .strictObject({
      registrationToken: oneTimeTokenSchema('Registration_Token_Invalid'),
      ...accountFields(today),
    })
    .check(...accountChecks());
export const SelfRegistrationRequest = selfRegistrationRequest();
export type SelfRegistrationRequest = z.input<typeof SelfRegistrationRequest>;

/** The same answer whether or not the email address was already in use (account existence is never revealed). */
export const SelfRegistrationResponse = dataEnvelope(z.object({ registered: z.literal(true) }));
export type SelfRegistrationResponse = z.infer<typeof SelfRegistrationResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Email verification

/** `POST /api/auth/verify-email`: the token from the link's fragment (`/verify-email#token=…`). */
export const VerifyEmailRequest = z.strictObject({ token: oneTimeTokenSchema('Verification_Link_Invalid') });
export type VerifyEmailRequest = z.input<typeof VerifyEmailRequest>;
export const VerifyEmailResponse = dataEnvelope(z.object({ verified: z.literal(true) }));
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;

/** `POST /api/auth/verify-email/resend`: answers the same whether or not an email was sent. */
export const ResendVerificationRequest = z.strictObject({ email: EmailSchema });
export type ResendVerificationRequest = z.input<typeof ResendVerificationRequest>;
export const ResendVerificationResponse = dataEnvelope(z.object({ accepted: z.literal(true) }));
export type ResendVerificationResponse = z.infer<typeof ResendVerificationResponse>;
