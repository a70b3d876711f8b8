import { z } from 'zod/mini';
import { DATE_MAX, DATE_MIN, SECURITY_QUESTION_COUNT } from './field-limits';

/**
 * The field rules that forms share, each written once (docs/requirements/portal.md#field-rules,
 * docs/decisions/0031-field-rules.md): the web forms check them before anything is sent and the server checks the
 * same schemas again. Messages are error codes (error-codes.json) the web turns into the CMS's text. Provider
 * identifiers (NPI, PTAN, TIN…) live in identifiers.ts, the password policy in password-policy.ts.
 */

// ---------------------------------------------------------------------------------------------------------------
// Text

/** A control character (C0 or DEL); `allowLines` lets tab, line feed and carriage return through. */
function hasControlCharacter(value: string, allowLines = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (allowLines && (c === 9 || c === 10 || c === 13)) continue;
    if (c < 32 || c === 127) return true;
  }
  return false;
}
/** Control characters (NUL among them, which PostgreSQL text refuses) never belong in a typed field. */
export const noControlCharacters = (message = 'Remove the control characters.') =>
  z.refine<string>((v) => !hasControlCharacter(v), message);
/** Multi-line text: line breaks and tabs allowed, other control characters not. */
export const noControlCharactersExceptLines = (message = 'Remove the control characters.') =>
  z.refine<string>((v) => !hasControlCharacter(v, true), message);

/** What people type, trimmed before the checks. */
const trimmedString = (error?: string) =>
  z.pipe(
    z.string(error ? { error } : undefined),
    z.transform((value: string) => value.trim()),
  );

// ---------------------------------------------------------------------------------------------------------------
// Dates

export { DATE_MAX, DATE_MIN, SECURITY_QUESTION_COUNT };

/** "Today" as a calendar day `YYYY-MM-DD`, asked for at each check so a long-open form and a moved clock count. */
export type Today = () => string;

const pad = (n: number) => String(n).padStart(2, '0');

/** Today where the code runs (the browser: the user's own calendar day). */
export const localToday: Today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

/**
 * The latest calendar day anywhere on Earth at `now` (UTC+14, the easternmost time zone). The server refuses a date
 * after it: a day no user can have reached yet, whatever their time zone, so a date the user's browser accepted as
 * today is never refused by the server.
 */
export function latestDayOnEarth(now: Date): string {
  return new Date(now.getTime() + 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

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

/**
 * A date that has already happened (a birth, a date of service): `invalid` for a missing, impossible or out-of-range
 * value, `future` for a day after `today()`.
 */
export function pastDateSchema(messages: { invalid: string; future: string }, today: Today = localToday) {
  // `when` rather than `abort`: an aborted field would stop the checks across fields of the request that holds it.
  return z.string({ error: messages.invalid }).check(
    z.refine(isIsoDateInRange, { message: messages.invalid }),
    z.refine((value: string) => value <= today(), {
      message: messages.future,
      when: (payload) => typeof payload.value === 'string' && isIsoDateInRange(payload.value),
    }),
  );
}

/**
 * Date of birth: `Date_Of_Birth_Invalid` ('Date of Birth is invalid', the spec's text) when missing or impossible,
 * `Date_Of_Birth_In_Future` after today. The server passes its clock as `today`.
 */
export const dateOfBirthSchema = (today: Today = localToday) =>
  pastDateSchema({ invalid: 'Date_Of_Birth_Invalid', future: 'Date_Of_Birth_In_Future' }, today);
/** The date of birth checked against the local day (the browser's forms). */
export const DobSchema = dateOfBirthSchema();

// ---------------------------------------------------------------------------------------------------------------
// Email

/** RFC 5321's limit on a path, so on an address. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * One email rule everywhere (registration, email change, resend, forgot username and password): trimmed, at most 254
 * characters, in zod's email pattern, which is ASCII only and needs a dot in the domain (`demo.user.j5@example` is
 * refused). ASCII only means a look-alike such as `\u212Aelly@…` (KELVIN SIGN) cannot be typed onto `kelly@…`.
 */
export const EmailSchema = z.pipe(
  trimmedString('Email_Invalid'),
  z.string().check(z.maxLength(EMAIL_MAX_LENGTH, 'Email_Invalid'), z.email('Email_Invalid')),
);

/**
 * The form in which two addresses are compared (and the server's `lower(email)` index is searched): trimmed, ASCII
 * letters lower-cased, nothing else folded. `'\u212A'.toLowerCase()` is `k`; here it stays itself, so an address
 * that slipped past the rule above still never matches an ASCII one.
 */
export function emailKey(email: string): string {
  return email.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The same address, case aside (see `emailKey`). */
export function sameEmail(a: string, b: string): boolean {
  return emailKey(a) === emailKey(b);
}

// ---------------------------------------------------------------------------------------------------------------
// Username

/** A new username: 6 to 30 letters, digits, dots, dashes or underscores, starting with a letter; unique whatever its case. */
export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{5,29}$/;
export const UsernameSchema = z.pipe(
  trimmedString('Username_Invalid'),
  z.string().check(z.regex(USERNAME_PATTERN, 'Username_Invalid')),
);

/**
 * A username typed to name an existing account (login, forgot password, reactivation): looked up, not judged, so
 * accounts made before the pattern (and internal users' directory names) still log in. Trimmed, 1 to 100
 * characters, no control characters.
 */
export const USERNAME_LOOKUP_MAX_LENGTH = 100;
export const UsernameLookupSchema = z.pipe(
  trimmedString(),
  z.string().check(z.minLength(1), z.maxLength(USERNAME_LOOKUP_MAX_LENGTH), noControlCharacters()),
);

// ---------------------------------------------------------------------------------------------------------------
// Phone

/** US phone: 10 digits; spaces, dots, dashes, brackets and a leading +1 are ignored. Stored as the 10 digits. */
export const PhoneSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Phone_Invalid' }),
    z.transform((value: string) => value.replace(/[\s().-]/g, '').replace(/^\+?1(?=\d{10}$)/, '')),
  ),
  z.string().check(z.regex(/^[2-9]\d{9}$/, 'Phone_Invalid')),
);

/** Only the last four digits of a phone number (`***-***-0123`); null when there is none. */
export function maskPhone(phone: string | null): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  if (digits.length < 4) return null;
  return `***-***-${digits.slice(-4)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Security questions and answers

/** NFKC, lower case, trimmed, inner runs of white space as one space: 'Blue  Honda ' and 'blue honda' are one answer. */
export function normaliseSecurityAnswer(answer: string): string {
  return answer.normalize('NFKC').toLowerCase().trim().replace(/\s+/gu, ' ');
}

export const SECURITY_ANSWER_MIN_LENGTH = 3;
export const SECURITY_ANSWER_MAX_LENGTH = 100;

/**
 * A security answer being set: 3 to 100 characters once normalised (a 1- or 2-character answer is guessed in a few
 * tries), no control characters. Stored hashed; the three answers of an account must differ.
 */
export const SecurityAnswerSchema = z.pipe(
  trimmedString('Security_Answer_Invalid'),
  z.string().check(
    z.refine(
      (value: string) =>
        normaliseSecurityAnswer(value).length >= SECURITY_ANSWER_MIN_LENGTH &&
        normaliseSecurityAnswer(value).length <= SECURITY_ANSWER_MAX_LENGTH,
      'Security_Answer_Invalid',
    ),
    noControlCharacters('Security_Answer_Invalid'),
  ),
);

/**
 * A security answer typed to prove who one is (reset, reactivation): only what could ever match a stored answer is
 * taken (1 to 100 characters, no control characters); a wrong one counts towards the attempts like any other.
 */
export const SecurityAnswerAttemptSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(SECURITY_ANSWER_MAX_LENGTH), noControlCharacters());

/**
 * A security question is named by its CMS entry's stable `key` (a slug the CMS seed sets), not by its documentId,
 * so demo accounts seeded before the CMS exists can refer to the same questions. The server also checks that the
 * key is in the CMS's current list.
 */
export const SecurityQuestionKey = z
  .string({ error: 'Security_Question_Invalid' })
  .check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'Security_Question_Invalid'));
export const SecurityQuestionAnswer = z.strictObject({ questionId: SecurityQuestionKey, answer: SecurityAnswerSchema });
export type SecurityQuestionAnswer = z.input<typeof SecurityQuestionAnswer>;

/** Three rows of a question and a text answer each, as typed (whatever else failed). */
function threeRows(value: unknown): value is { questionId: unknown; answer: string }[] {
  return (
    Array.isArray(value) &&
    value.length === SECURITY_QUESTION_COUNT &&
    value.every(
      (row) => typeof row === 'object' && row !== null && typeof (row as { answer?: unknown }).answer === 'string',
    )
  );
}
const distinctQuestions = (rows: { questionId: unknown }[]) =>
  new Set(rows.map((q) => q.questionId)).size === rows.length;

/** Three different questions, each with its own answer (registration and the change on My account). */
export const SecurityQuestionsSchema = z
  .array(SecurityQuestionAnswer, { error: 'Security_Questions_Not_Distinct' })
  // Each check runs only where the one before it passed (`when`, not `abort`: an aborted field would stop the checks
  // across fields of the request that holds it, and a registration would show its problems in two rounds).
  .check(
    z.length(SECURITY_QUESTION_COUNT, { error: 'Security_Questions_Not_Distinct' }),
    z.refine(distinctQuestions, {
      message: 'Security_Questions_Not_Distinct',
      when: (payload) => threeRows(payload.value),
    }),
    // An answer the same as an earlier one, once normalised (one too short already has its own message).
    z.superRefine(
      (rows, ctx) => {
        const seen = new Set<string>();
        rows.forEach((row, index) => {
          const answer = normaliseSecurityAnswer(row.answer);
          if (answer.length < SECURITY_ANSWER_MIN_LENGTH) return;
          if (seen.has(answer))
            ctx.addIssue({
              code: 'custom',
              message: 'Security_Answers_Not_Distinct',
              path: [index, 'answer'],
              input: row.answer,
            });
          seen.add(answer);
        });
      },
      { when: (payload) => threeRows(payload.value) && distinctQuestions(payload.value) },
    ),
  );
