import { GENERIC_ERROR_CODE } from '@portal/contracts/errors';
import { ApiError } from './api-error';
import { useErrorMessage } from './error-messages';

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
 * Codes are single words joined by underscores (`Authority_Locked`); a sentence has spaces. Decided by shape, so
 * the registry's texts stay out of the first page's JavaScript.
 */
const isSentence = (message: string) => /\s/.test(message.trim());

/**
 * A failed call's text: the CMS message for its error code, with the usual fallbacks (docs/requirements/api.md);
 * a 429 that says when to retry says so in minutes instead. With `sentences`, an `errorMessage` that is a sentence
 * rather than a code is shown raw (the authority validation writes one there).
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
        : sentences && error instanceof ApiError && isSentence(error.code)
          ? error.code
          : undefined;
  const code =
    error === undefined || asIs !== undefined ? undefined : error instanceof ApiError ? error.code : GENERIC_ERROR_CODE;
  const looked = useErrorMessage(code).data;
  return asIs ?? looked;
}
