import { useQueries } from '@tanstack/react-query';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { getErrorMessageQueryOptions, isErrorCode } from '../../lib/error-messages';

/** Every message in react-hook-form's (nested) errors; `ref` holds the DOM element and is skipped. */
function messagesOf(errors: unknown, found: Set<string> = new Set()): Set<string> {
  if (!errors || typeof errors !== 'object') return found;
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'ref') continue;
    if (key === 'message' && typeof value === 'string') found.add(value);
    else messagesOf(value, found);
  }
  return found;
}

/**
 * Field errors from the contracts' schemas and the server's `fieldErrors` carry error codes (`Email_Invalid`);
 * this turns each into the CMS text for it (docs/requirements/api.md#error-message-lookup-and-fallback) for what
 * shows them outside a form field: the error summary, a list's own message (the fields translate theirs). Until the
 * CMS answers such a message is left out (never a bare code), and `pending` says so; messages that are not codes
 * (the identifiers' sentences) pass through.
 */
export function useErrorCodeText<T extends FieldValues>(errors: FieldErrors<T>) {
  const codes = [...messagesOf(errors)].filter(isErrorCode).sort();
  const answers = useQueries({ queries: codes.map((code) => getErrorMessageQueryOptions(code)) });
  const texts = new Map(codes.map((code, index) => [code, answers[index]?.data]));
  const text = (message: string | undefined) => (isErrorCode(message) ? texts.get(message) : message);
  /** Some code's text has not come yet (the error summary waits for it: it shows every problem at once). */
  const pending = answers.some((answer) => answer.data === undefined);
  return { text, pending };
}
