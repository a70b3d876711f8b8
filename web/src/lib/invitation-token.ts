/**
 * The token of the invitation link this tab opened (docs/requirements/staff-accounts.md#invitations), kept in the
 * tab's session storage so that it survives the way on: to the end-user registration, or to the login and back to the
 * invitation page. It is never put in a URL (the link carries it in the fragment, which the page clears at once) and
 * goes to the server in request bodies only. Several features read it, hence here.
 */
const KEY = 'portal.invitation-token';
/** The address the invitation was sent to, as its lookup told it: the registration fills it in. */
const EMAIL_KEY = 'portal.invitation-email';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    // Storage blocked by the browser's settings: the invitation then works in one step only (the page still shows it).
    return undefined;
  }
}

export function rememberInvitationToken(token: string): void {
  storage()?.setItem(KEY, token);
}

/** The invitation token this tab holds, or '' when none. */
export function rememberedInvitationToken(): string {
  return storage()?.getItem(KEY) ?? '';
}

export function rememberInvitedEmail(email: string): void {
  storage()?.setItem(EMAIL_KEY, email);
}

/** The address the remembered invitation was sent to, or '' when unknown. */
export function rememberedInvitedEmail(): string {
  return rememberedInvitationToken() ? (storage()?.getItem(EMAIL_KEY) ?? '') : '';
}

/** Forgets the token (and its address): it was used, or the server refused it. */
export function forgetInvitationToken(): void {
  storage()?.removeItem(KEY);
  storage()?.removeItem(EMAIL_KEY);
}
