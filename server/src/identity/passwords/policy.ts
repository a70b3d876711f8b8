import blocklistEntries from '@portal/contracts/password-blocklist.json';
import { checkPassword, type PasswordProblem } from '@portal/contracts/password-policy';

/** The common-password list shipped in contracts, lower-cased. */
export const passwordBlocklist: ReadonlySet<string> = new Set(blocklistEntries);

/** The policy with the blocklist loaded; `personal` is the user's names, username and email. */
export function passwordProblems(
  password: string,
  personal: readonly (string | null | undefined)[],
): PasswordProblem[] {
  return checkPassword(password, { personal, blocklist: passwordBlocklist });
}
