import { GENERIC_ERROR_CODE } from '@portal/contracts';
import { ApiError } from './api-client';
import { useErrorMessage } from './error-messages';

/** A failed call's text: the CMS message for its error code, with the usual fallbacks (docs/requirements/api.md). */
export function useApiErrorText(error: unknown): string | undefined {
  const code = error === undefined ? undefined : error instanceof ApiError ? error.code : GENERIC_ERROR_CODE;
  return useErrorMessage(code).data;
}
