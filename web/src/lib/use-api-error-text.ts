import { GENERIC_ERROR_CODE } from '@portal/contracts';
import { ApiError } from './api-client';
import { useErrorMessage } from './error-messages';

/** "Too many attempts. Try again in 3 minutes." from a 429's Retry-After (rounded up to whole minutes). */
export function tooManyAttemptsText(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/**
 * A failed call's text: the CMS message for its error code, with the usual fallbacks (docs/requirements/api.md);
 * a 429 that says when to retry says so in minutes instead.
 */
export function useApiErrorText(error: unknown): string | undefined {
  const retryAfter = error instanceof ApiError && error.status === 429 ? error.retryAfterSeconds : undefined;
  const code =
    error === undefined || retryAfter !== undefined
      ? undefined
      : error instanceof ApiError
        ? error.code
        : GENERIC_ERROR_CODE;
  const message = useErrorMessage(code).data;
  return retryAfter !== undefined ? tooManyAttemptsText(retryAfter) : message;
}
