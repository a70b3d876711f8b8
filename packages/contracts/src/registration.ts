import { z } from 'zod/mini';
import { dataEnvelope } from './http';
import { ClaimNumberSchema, MbiSchema, NpiSchema, PtanSchema, TinSchema } from './identifiers';
import { LineOfBusinessSchema, MacJurisdictionSchema } from './jurisdictions';
import { PasswordSchema, personalWords } from './password-policy';

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

/** Dates the pickers accept (docs/requirements/portal.md#forms). */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2099-12-31';

/** Lifetimes of the tokens the steps hand on (server defaults). */
export const VALIDATION_TOKEN_TTL_MS = 15 * 60 * 1000;
export const REGISTRATION_TOKEN_TTL_MS = 30 * 60 * 1000;
/** Unverified registrations are deleted after this long and free their location. */
export const EMAIL_VERIFY_TTL_MS = 72 * 60 * 60 * 1000;

/** A real calendar day `YYYY-MM-DD` from 1900-01-01 to 2099-12-31. */
export function isIsoDateInRange(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < DATE_MIN || value > DATE_MAX) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A date field: `message` is used for a missing, mistyped or out-of-range value alike. */
export function isoDateSchema(message: string) {
  return z.string({ error: message }).check(z.refine(isIsoDateInRange, { message }));
}

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
  /** Only the last four digits, e.g. `**-***6789`. */
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
const VALIDATION_TOKEN_MESSAGE = 'Check your provider details again: go back to the first step.';

const authorityCommon = {
  npi: NpiSchema,
  validationToken: oneTimeTokenSchema(VALIDATION_TOKEN_MESSAGE),
  passthroughResponse: z.optional(z.boolean()),
};

/** `POST /api/locations/validate/authority`: the facts depend on `financialLookupSelector`. */
export const ValidateAuthorityRequest = z.discriminatedUnion('financialLookupSelector', [
  z.strictObject({
    ...authorityCommon,
    financialLookupSelector: z.literal('patient'),
    patientMbi: MbiSchema,
    dateOfService: isoDateSchema(DATE_OF_SERVICE_MESSAGE),
  }),
  z.strictObject({ ...authorityCommon, financialLookupSelector: z.literal('check'), checkNumber: CheckNumberSchema }),
  z.strictObject({ ...authorityCommon, financialLookupSelector: z.literal('claim'), claimNumber: ClaimNumberSchema }),
]);
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

/** Username: 6 to 30 letters, digits, dots, dashes or underscores, starting with a letter; unique whatever its case. */
export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{5,29}$/;
export const UsernameSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Username_Invalid' }),
    z.transform((value: string) => value.trim()),
  ),
  z.string().check(z.regex(USERNAME_PATTERN, 'Username_Invalid')),
);

const trimmed = (code: string, max: number) =>
  z.pipe(
    z.pipe(
      z.string({ error: code }),
      z.transform((value: string) => value.trim().replace(/\s+/g, ' ')),
    ),
    z.string().check(z.minLength(1, code), z.maxLength(max, code)),
  );

export const EmailSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Email_Invalid' }),
    z.transform((value: string) => value.trim()),
  ),
  z.string().check(z.maxLength(254, 'Email_Invalid'), z.email('Email_Invalid')),
);

/** US phone: 10 digits; spaces, dots, dashes, brackets and a leading +1 are ignored. Stored as the 10 digits. */
export const PhoneSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Phone_Invalid' }),
    z.transform((value: string) => {
      const digits = value.replace(/[\s().-]/g, '').replace(/^\+?1(?=\d{10}$)/, '');
      return digits;
    }),
  ),
  z.string().check(z.regex(/^[2-9]\d{9}$/, 'Phone_Invalid')),
);

/** `Date_Of_Birth_Invalid`, whose message is 'Date of Birth is invalid', for a missing or impossible date. */
export const DobSchema = isoDateSchema('Date_Of_Birth_Invalid');

/**
 * A security question is named by its CMS entry's stable `key` (a slug the CMS seed sets), not by its documentId,
 * so demo accounts seeded before the CMS exists can refer to the same questions.
 */
export const SecurityQuestionKey = z
  .string({ error: 'Security_Question_Invalid' })
  .check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'Security_Question_Invalid'));
export const SECURITY_QUESTION_COUNT = 3;
export const SecurityAnswerSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Security_Answer_Invalid' }),
    z.transform((value: string) => value.trim()),
  ),
  z.string().check(z.minLength(2, 'Security_Answer_Invalid'), z.maxLength(100, 'Security_Answer_Invalid')),
);
export const SecurityQuestionAnswer = z.strictObject({ questionId: SecurityQuestionKey, answer: SecurityAnswerSchema });
export type SecurityQuestionAnswer = z.input<typeof SecurityQuestionAnswer>;
/** Three different questions, each answered (registration and the change on My account). */
export const SecurityQuestionsSchema = z
  .array(SecurityQuestionAnswer, { error: 'Security_Questions_Not_Distinct' })
  .check(
    z.length(SECURITY_QUESTION_COUNT, { error: 'Security_Questions_Not_Distinct', abort: true }),
    z.refine((rows) => new Set(rows.map((q) => q.questionId)).size === rows.length, {
      message: 'Security_Questions_Not_Distinct',
    }),
  );

/** `POST /api/admin-self-registration` */
export const SelfRegistrationRequest = z
  .strictObject({
    registrationToken: oneTimeTokenSchema('Registration_Token_Invalid'),
    firstName: trimmed('First_Name_Invalid', 50),
    lastName: trimmed('Last_Name_Invalid', 50),
    email: EmailSchema,
    emailConfirmation: z.string({ error: 'Email_Mismatch' }),
    phone: PhoneSchema,
    dob: DobSchema,
    username: UsernameSchema,
    password: PasswordSchema,
    securityQuestions: SecurityQuestionsSchema,
  })
  .check(
    z.refine((r) => r.emailConfirmation.trim().toLowerCase() === r.email.toLowerCase(), {
      message: 'Email_Mismatch',
      path: ['emailConfirmation'],
    }),
    // The blocklist is checked by the server (and lazily by the form); the personal words need no list.
    z.refine(
      (r) => {
        const normal = r.password.toLowerCase();
        return !personalWords([r.firstName, r.lastName, r.username, r.email]).some((w) => normal.includes(w));
      },
      { message: 'Password_Contains_Personal_Info', path: ['password'] },
    ),
  );
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
