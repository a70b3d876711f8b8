/**
 * Whether this tab was shown new recovery codes that the person has not confirmed saving
 * (docs/requirements/session.md#mfa): a refresh or a closed step loses codes that are never shown again, so the
 * portal home and My account then say so and offer new ones. Kept in the tab's session storage: the codes never are.
 * Several features read it (the login, the portal home, My account), hence here.
 */
const KEY = 'portal.recovery-codes-unsaved';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function markRecoveryCodesUnsaved(): void {
  storage()?.setItem(KEY, '1');
}

export function forgetRecoveryCodesUnsaved(): void {
  storage()?.removeItem(KEY);
}

export function recoveryCodesUnsaved(): boolean {
  return storage()?.getItem(KEY) === '1';
}

/** Codes left at or under which the portal home and My account warn: new ones are due. */
const FEW_RECOVERY_CODES_LEFT = 2;

/** Whether the person should make new recovery codes: unsaved in this tab, or (with an app set up) few left. */
export function recoveryCodesDue(
  mfa: { authenticatorEnrolledAt: string | null; recoveryCodesLeft: number },
  unsaved: boolean,
): boolean {
  return unsaved || (!!mfa.authenticatorEnrolledAt && mfa.recoveryCodesLeft <= FEW_RECOVERY_CODES_LEFT);
}

/** What the warning says: why new codes are due. */
export function recoveryCodesDueText(left: number, unsaved: boolean): string {
  if (unsaved)
    return 'You did not confirm that you saved your recovery codes, and they cannot be shown again. Make new ones and keep them somewhere safe.';
  if (left === 0)
    return 'You have no recovery codes left: if you lose your authenticator app, you cannot log in. Make new ones.';
  return `Only ${left} recovery ${left === 1 ? 'code is' : 'codes are'} left. Make new ones before they run out.`;
}
