/**
 * The token of the invitation link this tab opened (docs/requirements/staff-accounts.md#invitations), kept in the
 * tab's session storage so that it survives the way on: to the end-user registration, or to the login and back to the
 * invitation page. It is never put in a URL (the link carries it in the fragment, which the page clears at once) and
 * goes to the server in request bodies only. Several features read it, hence here.
 */
const KEY = 'portal.invitation-token';

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

/** Forgets the token: it was used, or the server refused it. */
export function forgetInvitationToken(): void {
  storage()?.removeItem(KEY);
}
