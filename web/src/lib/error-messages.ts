import { queryOptions, useQuery } from '@tanstack/react-query';
import { FALLBACK_ERROR_TEXT, GENERIC_ERROR_CODE } from '@portal/contracts/errors';
import { readContent } from './content-query';

/**
 * An error code (`Email_Invalid`, `Unauthorized`: capitalised words joined by underscores, no spaces) rather than a
 * sentence to show: the web's one test of it (form fields, the error summary, the authority step's raw sentences).
 * Decided by shape, not by the registry, so the registry's default texts stay out of the first page's JavaScript.
 */
export function isErrorCode(message: unknown): message is string {
  return typeof message === 'string' && /^[A-Z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*$/.test(message);
}

async function messageFor(code: string, signal?: AbortSignal): Promise<string | undefined> {
  const list = await readContent(
    'error-messages',
    { 'filters[ErrorCode][$eq]': code },
    (s) => s.ErrorMessageListSchema,
    signal,
  );
  return list[0]?.attributes.Message;
}

/**
 * docs/requirements/api.md#error-message-lookup-and-fallback: the CMS text for an error code; if none, the default code's text; if still none (or the CMS
 * cannot answer), 'An error has happened, please try again.'
 */
export async function lookUpErrorMessage(code: string, signal?: AbortSignal): Promise<string> {
  try {
    return (
      (await messageFor(code, signal)) ??
      (code !== GENERIC_ERROR_CODE ? await messageFor(GENERIC_ERROR_CODE, signal) : undefined) ??
      FALLBACK_ERROR_TEXT
    );
  } catch {
    return FALLBACK_ERROR_TEXT;
  }
}

export const getErrorMessageQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ['content', 'error-message', code],
    queryFn: ({ signal }) => lookUpErrorMessage(code, signal),
    staleTime: 5 * 60_000,
  });

export function useErrorMessage(code: string | undefined) {
  return useQuery({ ...getErrorMessageQueryOptions(code ?? ''), enabled: !!code });
}
