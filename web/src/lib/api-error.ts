import type { ErrorResponse } from '@portal/contracts';
import { SESSION_ENDED_CODES } from '@portal/contracts/response-checks';
import { isSessionEndedCode, rememberEndedReason } from './session/ended-reason';

// The error type and the session-lost signal of the HTTP client (api-client.ts), without the client: the first load's
// modules (query client, session context, content pages) use them, the client and its answers' schemas (zod) load
// with the first request (docs/requirements/platform.md#web-budget).

/** A non-2xx answer: `code` is the server's errorMessage (an error code, or a readable sentence for authority validation). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly fieldErrors?: ErrorResponse['fieldErrors'],
    readonly requestId?: string,
    /** Seconds from a 429's `Retry-After` header, when it carried a number. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

/**
 * The codes of a 401 that mean the server no longer has a logged-in session for this browser: expired, or ended by
 * someone else (the reason is kept for the login page, session/ended-reason.ts).
 */
const SESSION_LOST_CODES = new Set<string>(['Session_Expired', 'Not_Logged_In', ...SESSION_ENDED_CODES]);
const sessionLostListeners = new Set<(code: string) => void>();

/**
 * Called on every 401 Session_Expired / Not_Logged_In answer (docs/requirements/session.md#activity-status: the
 * session context turns it into the session-ended dialog, never a silent failure). Returns the unsubscribe.
 */
export function onSessionLost(listener: (code: string) => void): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

/** A 401's error code, from the HTTP client: the listeners hear it when it means the session is gone. */
export function reportSessionLost(code: string) {
  if (isSessionEndedCode(code)) rememberEndedReason(code);
  if (SESSION_LOST_CODES.has(code)) for (const listener of sessionLostListeners) listener(code);
}
