import { errorCodes, GENERIC_ERROR_CODE } from '@portal/contracts';
import { ApiError } from './api-client';
import { useErrorMessage } from './error-messages';

/** A failure whose message is shown to the user as it is, not looked up (e.g. 'An error has happened'). */
export class ShownAsIsError extends Error {
  override name = 'ShownAsIsError';
}

const registeredCodes: ReadonlySet<string> = new Set(errorCodes);

/**
 * A failed call's text: the CMS message for its error code, with the usual fallbacks (docs/requirements/api.md).
 * With `sentences`, an `errorMessage` that is not a registered code is the server's readable sentence and is shown
 * raw (the authority validation writes one there).
 */
export function useApiErrorText(
  error: unknown,
  { sentences = false }: { sentences?: boolean } = {},
): string | undefined {
  const asIs =
    error instanceof ShownAsIsError
      ? error.message
      : sentences && error instanceof ApiError && !registeredCodes.has(error.code)
        ? error.code
        : undefined;
  const code =
    error === undefined || asIs !== undefined ? undefined : error instanceof ApiError ? error.code : GENERIC_ERROR_CODE;
  const looked = useErrorMessage(code).data;
  return asIs ?? looked;
}
