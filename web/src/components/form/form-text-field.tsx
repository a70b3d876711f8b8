import {
  FormControl,
  FormHelperText,
  InputLabel,
  OutlinedInput,
  type InputLabelProps,
  type OutlinedInputProps,
  type TextFieldProps,
} from '@mui/material';
import { useForkRef } from '@mui/material/utils';
import type { InputHTMLAttributes, Ref } from 'react';
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

export type FormTextFieldProps = Pick<
  TextFieldProps,
  | 'label'
  | 'type'
  | 'autoComplete'
  | 'autoFocus'
  | 'required'
  | 'disabled'
  | 'multiline'
  | 'rows'
  | 'minRows'
  | 'maxRows'
  | 'placeholder'
  | 'helperText'
  | 'sx'
  | 'className'
> & {
  id: string;
  slotProps?: {
    /** Attributes of the `<input>` (or `<textarea>`) itself. */
    htmlInput?: InputHTMLAttributes<HTMLInputElement> & Record<`data-${string}`, string>;
    /** Props of the outlined input around it (an adornment, its own aria-describedby). */
    input?: Partial<OutlinedInputProps>;
    inputLabel?: Partial<InputLabelProps>;
  };
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
 * aria-describedby and aria-invalid. An error code (from the contracts' schemas or the server's `fieldErrors`) shows
 * as its CMS text, never as the bare code, whichever form gives it.
 *
 * MUI's outlined TextField, put together from its parts as TextField does (same markup, ids and classes): TextField
 * itself also imports the select, its menu and popover and the other two variants (about 20 KB gzip), which every
 * page with a form then loaded before it could hydrate (docs/requirements/platform.md#web-budget). Selects are
 * FormSelectField.
 */
export function FormTextField({
  id,
  registration,
  error,
  helperText,
  extraInputRef,
  label,
  required = false,
  disabled = false,
  multiline = false,
  slotProps = {},
  sx,
  className,
  ...inputAttributes
}: FormTextFieldProps) {
  const { ref, name, onChange, onBlur } = registration;
  const inputRef = useForkRef<HTMLElement | null>(ref, extraInputRef);
  const message = useFieldErrorText(error);
  // Read-only until the page has hydrated: text typed into a server-rendered field before then would never reach the
  // form's state (and the form could submit natively before its handler exists).
  const hydrated = useHydrated();
  const { htmlInput = {}, input = {}, inputLabel = {} } = slotProps;
  const shownHelperText = message ?? helperText;
  const helperTextId = shownHelperText ? `${id}-helper-text` : undefined;
  const hasLabel = label != null && label !== '';
  return (
    <FormControl
      className={['MuiTextField-root', className].filter(Boolean).join(' ')}
      sx={sx}
      disabled={disabled}
      error={!!error}
      required={required}
      fullWidth
      margin="normal"
      variant="outlined"
    >
      {hasLabel && (
        <InputLabel htmlFor={id} id={`${id}-label`} {...inputLabel}>
          {label}
        </InputLabel>
      )}
      <OutlinedInput
        aria-describedby={helperTextId}
        {...inputAttributes}
        id={id}
        name={name}
        onChange={onChange}
        onBlur={onBlur}
        inputRef={inputRef}
        multiline={multiline}
        fullWidth
        label={label}
        {...(inputLabel.shrink !== undefined ? { notched: inputLabel.shrink } : {})}
        inputProps={{ ...htmlInput, readOnly: !hydrated || htmlInput.readOnly }}
        {...input}
      />
      {shownHelperText && <FormHelperText id={helperTextId}>{shownHelperText}</FormHelperText>}
    </FormControl>
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
