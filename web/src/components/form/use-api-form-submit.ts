import { useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useApiErrorText } from '../../lib/use-api-error-text';
import type { FormErrorItem } from './form-error-summary';
import { fieldErrorItems } from './form-text-field';

/**
 * The form pattern's submit: valid values go to the API; a failure is kept as the summary's last item (the CMS text
 * for its error code, with the usual fallbacks) and empties `clearOnError`, if given (a password or code is typed afresh).
 * The summary lists the field errors first, in the order of `fieldIds`.
 */
export function useApiFormSubmit<T extends FieldValues>(
  form: UseFormReturn<T>,
  fieldIds: Partial<Record<keyof T & string, string>>,
  options: { submit: (values: T) => Promise<void>; clearOnError?: Path<T> },
): { onSubmit: ReturnType<UseFormReturn<T>['handleSubmit']>; summary: FormErrorItem[] } {
  const [apiError, setApiError] = useState<unknown>();
  const apiErrorText = useApiErrorText(apiError);
  const summary = [
    ...fieldErrorItems(form.formState.errors, fieldIds),
    ...(apiErrorText ? [{ message: apiErrorText }] : []),
  ];
  const onSubmit = form.handleSubmit(async (values) => {
    setApiError(undefined);
    try {
      await options.submit(values);
    } catch (err) {
      setApiError(err);
      if (options.clearOnError) form.setValue(options.clearOnError, '' as PathValue<T, Path<T>>);
    }
  });
  return { onSubmit, summary };
}
