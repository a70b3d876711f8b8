/**
 * The password policy (docs/requirements/portal.md), shared by the registration, reset and change-password forms and
 * the server. No composition rules (NIST SP 800-63B): length, a blocklist of common passwords, and nothing taken from
 * the user's own name, username or email. The blocklist is a separate JSON (`password-blocklist.json`) so the
 * browser can lazy-load it; without it the other rules still apply. This module has no zod: a form page shows the
 * rules while typing without building a schema (password-policy.ts adds the schemas).
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;

export const passwordProblemCodes = [
  'Password_Too_Short',
  'Password_Too_Long',
  'Password_Too_Common',
  'Password_Contains_Personal_Info',
] as const;
export type PasswordProblem = (typeof passwordProblemCodes)[number];

export interface PasswordContext {
  /** The user's first/last name, username and email: any word of 3+ letters from them may not appear. */
  personal?: readonly (string | undefined | null)[];
  /** Lower-case common passwords (password-blocklist.json). */
  blocklist?: ReadonlySet<string>;
}

/** Length in Unicode code points, as NIST counts it (an emoji is one character). */
export function passwordLength(password: string): number {
  return [...password].length;
}

/** Words of 3+ letters or digits in the user's own details, lower-cased (`jane.doe@example.com` → jane, doe, example, com). */
export function personalWords(personal: readonly (string | undefined | null)[]): string[] {
  const words = new Set<string>();
  for (const value of personal) {
    for (const word of (value ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word.length >= 3) words.add(word);
  }
  return [...words];
}

/** A short unit repeated (`aaaaaaaaaaaaaaa`, `abcabcabcabcabc`): as guessable as the unit. */
function isRepetition(normal: string): boolean {
  return /^(.{1,4})\1+$/su.test(normal);
}

function isCommon(normal: string, blocklist: ReadonlySet<string> | undefined): boolean {
  if (isRepetition(normal)) return true;
  if (!blocklist) return false;
  // A common password padded with digits or symbols (`password1234567!`) is as weak as the password.
  const core = normal.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  return blocklist.has(normal) || (core.length >= 6 && blocklist.has(core));
}

/**
 * Each rule on its own, `true` when the password breaks it: the live checklist shows every rule at once, while
 * `checkPassword` stops at a length problem.
 */
export function passwordRuleResults(password: string, context: PasswordContext = {}): Record<PasswordProblem, boolean> {
  const length = passwordLength(password);
  const normal = password.toLowerCase();
  return {
    Password_Too_Short: length < PASSWORD_MIN_LENGTH,
    Password_Too_Long: length > PASSWORD_MAX_LENGTH,
    Password_Too_Common: isCommon(normal, context.blocklist),
    Password_Contains_Personal_Info: personalWords(context.personal ?? []).some((word) => normal.includes(word)),
  };
}

/** Every rule the password breaks, each with the error code that says why; empty when it is acceptable. */
export function checkPassword(password: string, context: PasswordContext = {}): PasswordProblem[] {
  const broken = passwordRuleResults(password, context);
  if (broken.Password_Too_Short) return ['Password_Too_Short'];
  if (broken.Password_Too_Long) return ['Password_Too_Long'];
  return passwordProblemCodes.filter((code) => broken[code]);
}
