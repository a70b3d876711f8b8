import { SESSION_ENDED_CODES, type SessionEndedCode } from '@portal/contracts/response-checks';
import { useSyncExternalStore } from 'react';

/**
 * Why someone else ended this tab's session (docs/requirements/session.md#forced-logout): an administrator disabled
 * the account or reset its second factor, or the account was locked. The server says it once (a 401's code, or the
 * session answer that clears the cookie); it is kept in the tab's session storage until the login page has shown it
 * and a login succeeded, so the session-ended dialog's Login (or a reload) still finds it.
 */
const KEY = 'portal.session-ended-reason';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function isSessionEndedCode(code: unknown): code is SessionEndedCode {
  return (SESSION_ENDED_CODES as readonly unknown[]).includes(code);
}

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

export function rememberEndedReason(code: SessionEndedCode): void {
  storage()?.setItem(KEY, code);
  changed();
}

/** The reason this tab's last session was ended by someone else, if the login page has not done with it yet. */
function endedReason(): SessionEndedCode | undefined {
  const code = storage()?.getItem(KEY);
  return isSessionEndedCode(code) ? code : undefined;
}

export function forgetEndedReason(): void {
  storage()?.removeItem(KEY);
  changed();
}

/** `endedReason()` as React state: none on the server and while hydrating, then the tab's, kept up to date. */
export function useEndedReason(): SessionEndedCode | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    endedReason,
    () => undefined,
  );
}
