import { GENERIC_ERROR_CODE } from '@portal/contracts';
import { ApiError } from './api-client';
import { useErrorMessage } from './error-messages';

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
 * A failed call's text: the CMS message for its error code, with the usual fallbacks (docs/requirements/api.md).
 * With `sentences`, an `errorMessage` that is a sentence rather than a code is shown raw (the authority validation
 * writes one there).
 */
export function useApiErrorText(
  error: unknown,
  { sentences = false }: { sentences?: boolean } = {},
): string | undefined {
  const asIs =
    error instanceof ShownAsIsError
      ? error.message
      : sentences && error instanceof ApiError && isSentence(error.code)
        ? error.code
        : undefined;
  const code =
    error === undefined || asIs !== undefined ? undefined : error instanceof ApiError ? error.code : GENERIC_ERROR_CODE;
  const looked = useErrorMessage(code).data;
  return asIs ?? looked;
}
