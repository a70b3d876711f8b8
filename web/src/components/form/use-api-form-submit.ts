import { useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../../lib/api-error';
import { useApiErrorText } from '../../lib/use-api-error-text';
import type { FormErrorItem } from './form-error-summary';
import { fieldErrorItems } from './form-text-field';
import { useErrorCodeText } from './use-error-code-text';

export interface ApiFormSubmitOptions<T extends FieldValues, R = T> {
  /** Gets the values as the resolver gives them (the request the schema parsed, when it transforms them). */
  submit: (values: R) => Promise<void>;
  /** A field typed afresh after a failure (a password, a one-time code). */
  clearOnError?: Path<T>;
  /** Error codes that are about one field (409 `Username_Taken` → `username`): shown next to it, not at the top. */
  fieldForCode?: Partial<Record<string, Path<T>>>;
  /** The endpoint writes a readable sentence as `errorMessage`: show it raw (codes are still looked up). */
  sentences?: boolean;
}

/**
 * The form pattern's submit: valid values go to the API. A failure's `fieldErrors` (and codes named in
 * `fieldForCode`) go next to their fields; anything else (unless the same code is already a field's error) is the
 * summary's last item (the CMS text for its error
 * code, with the usual fallbacks). The summary lists the field errors first, in the order of `fieldIds` (dotted
 * paths for nested fields), each code turned into its CMS text.
 */
export function useApiFormSubmit<T extends FieldValues, R = T>(
  form: UseFormReturn<T, unknown, R>,
  fieldIds: Partial<Record<Path<T>, string>>,
  options: ApiFormSubmitOptions<T, R>,
): {
  onSubmit: ReturnType<UseFormReturn<T, unknown, R>['handleSubmit']>;
  summary: FormErrorItem[];
  /** The last failure shown in the summary (to offer a way on, e.g. a link for one error code). */
  apiError: unknown;
  /** A message (an error code or a sentence) as it is shown, for what is not a form field (the fields translate theirs). */
  text: ReturnType<typeof useErrorCodeText<T>>['text'];
} {
  const [apiError, setApiError] = useState<unknown>();
  const apiErrorText = useApiErrorText(apiError, { sentences: options.sentences });
  const { text, pending } = useErrorCodeText(form.formState.errors);
  const fieldItems = fieldErrorItems(form.formState.errors, fieldIds, text);
  // A refusal whose code is also a field's error (`Password_Reused` with `fieldErrors.newPassword`) is listed once,
  // as the field's item: the summary never says the same thing twice.
  const apiItems =
    apiErrorText && !fieldItems.some((item) => item.message === apiErrorText) ? [{ message: apiErrorText }] : [];
  const complete = [...fieldItems, ...apiItems];
  // Each code's text comes from the CMS on its own: until every one has come, the summary stays as it was (after a
  // first submit: not shown yet), so it appears, takes the focus and is announced with every problem of the submit,
  // never a part of them first (issue 38 item 11).
  const waiting = pending || (apiError !== undefined && apiErrorText === undefined);
  const [held, setHeld] = useState<{ key: string; items: FormErrorItem[] }>({ key: '[]', items: [] });
  const completeKey = JSON.stringify(complete);
  if (!waiting && held.key !== completeKey) setHeld({ key: completeKey, items: complete });
  const summary = waiting ? held.items : complete;
  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await options.submit(values);
    } catch (err) {
      const field = err instanceof ApiError ? options.fieldForCode?.[err.code] : undefined;
      if (field) form.setError(field, { type: 'server', message: (err as ApiError).code });
      else setApiError(err);
      if (err instanceof ApiError)
        for (const [path, messages] of Object.entries(err.fieldErrors ?? {}))
          if (messages[0] && path in fieldIds) form.setError(path as Path<T>, { type: 'server', message: messages[0] });
      if (options.clearOnError) form.setValue(options.clearOnError, '' as PathValue<T, Path<T>>);
    }
  });
  // The summary holds only this submit's errors: the last server message goes at every submit, also one the form's
  // own checks stop before anything is sent (a wrong code, then a code typed short, shows one message, not both).
  const onSubmit: typeof handleSubmit = (event) => {
    setApiError(undefined);
    setHeld({ key: '[]', items: [] });
    return handleSubmit(event);
  };
  return { onSubmit, summary, apiError, text };
}
