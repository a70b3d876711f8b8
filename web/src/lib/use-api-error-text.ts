import { GENERIC_ERROR_CODE } from '@portal/contracts/errors';
import { ApiError } from './api-error';
import { isErrorCode, useErrorMessage } from './error-messages';

/** "Too many attempts. Try again in 3 minutes." from a 429's Retry-After (rounded up to whole minutes). */
export function tooManyAttemptsText(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/** A failure whose message is shown to the user as it is, not looked up (e.g. 'An error has happened'). */
export class ShownAsIsError extends Error {
  override name = 'ShownAsIsError';
}

/**
 * A failed call's text: the CMS message for its error code, with the usual fallbacks (docs/requirements/api.md);
 * a 429 that says when to retry says so in minutes instead. With `sentences`, an `errorMessage` that is not a code
 * is shown raw (the authority validation writes a sentence there, as the product spec has it shown raw).
 */
export function useApiErrorText(
  error: unknown,
  { sentences = false }: { sentences?: boolean } = {},
): string | undefined {
  const retryAfter = error instanceof ApiError && error.status === 429 ? error.retryAfterSeconds : undefined;
  const asIs =
    retryAfter !== undefined
      ? tooManyAttemptsText(retryAfter)
      : error instanceof ShownAsIsError
        ? error.message
        : sentences && error instanceof ApiError && !isErrorCode(error.code)
          ? error.code
          : undefined;
  const code =
    error === undefined || asIs !== undefined ? undefined : error instanceof ApiError ? error.code : GENERIC_ERROR_CODE;
  const looked = useErrorMessage(code).data;
  return asIs ?? looked;
}
