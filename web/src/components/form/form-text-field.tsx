import { TextField, type TextFieldProps } from '@mui/material';
import { useForkRef } from '@mui/material/utils';
import type { Ref } from 'react';
import { useErrorMessage } from '../../lib/error-messages';
import { useHydrated } from '../../lib/use-hydrated';
import type { FormErrorItem } from './form-error-summary';
import { isErrorCode } from '../../lib/error-messages';
import {
  get,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegisterReturn,
} from 'react-hook-form';

export type FormTextFieldProps = Omit<TextFieldProps, 'error' | 'name' | 'id'> & {
  id: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
  /** Another ref to the input (e.g. the session context's login element). */
  extraInputRef?: Ref<HTMLElement | null>;
};

/**
 * The text a field shows for its error: an error code (from the contracts' schemas or the server's `fieldErrors`)
 * as its CMS text, left out until the CMS answers (never the bare code); any other message as it is.
 */
export function useFieldErrorText(error: FieldError | undefined): string | undefined {
  const code = isErrorCode(error?.message) ? error.message : undefined;
  const codeText = useErrorMessage(code).data;
  return code ? codeText : error?.message;
}

/**
 * A text field wired to react-hook-form: its error message is the helper text, tied to the input with
 * aria-describedby (MUI links helper text to the input by id) and aria-invalid. An error code (from the contracts'
 * schemas or the server's `fieldErrors`) shows as its CMS text, never as the bare code, whichever form gives it.
 */
export function FormTextField({ id, registration, error, helperText, extraInputRef, ...props }: FormTextFieldProps) {
  const { ref, ...field } = registration;
  const inputRef = useForkRef<HTMLElement | null>(ref, extraInputRef);
  const message = useFieldErrorText(error);
  // Read-only until the page has hydrated: text typed into a server-rendered field before then would never reach the
  // form's state (and the form could submit natively before its handler exists).
  const hydrated = useHydrated();
  const htmlInput = (props.slotProps?.htmlInput ?? {}) as Record<string, unknown>;
  return (
    <TextField
      {...props}
      {...field}
      slotProps={{ ...props.slotProps, htmlInput: { ...htmlInput, readOnly: !hydrated || htmlInput.readOnly } }}
      id={id}
      inputRef={inputRef}
      error={!!error}
      helperText={message ?? helperText}
      fullWidth
      margin="normal"
    />
  );
}

/**
 * The summary items of react-hook-form's field errors, in the order of `fields` (dotted paths reach nested fields,
 * e.g. `securityQuestions.0.answer`); `text` turns a message (an error code) into what is shown.
 */
export function fieldErrorItems<T extends FieldValues>(
  errors: FieldErrors<T>,
  fields: Partial<Record<Path<T>, string>>,
  text: (message: string | undefined) => string | undefined = (message) => message,
): FormErrorItem[] {
  const seen = new Set<string>();
  return Object.entries(fields).flatMap(([name, id]) => {
    const message = text((get(errors, name) as FieldError | undefined)?.message);
    // Two paths may name one field (a list and its first row): its message is listed once.
    if (typeof message !== 'string' || typeof id !== 'string' || seen.has(`${id}\n${message}`)) return [];
    seen.add(`${id}\n${message}`);
    return [{ fieldId: id, message }];
  });
}
