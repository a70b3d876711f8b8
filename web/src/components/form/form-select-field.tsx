import { TextField, type TextFieldProps } from '@mui/material';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useHydrated } from '../../lib/use-hydrated';
import { useFieldErrorText } from './form-text-field';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/**
 * A select of the form pattern, bound to react-hook-form with `register`: a native `<select>` (keyboard, screen
 * readers and phones handle it well), labelled, its error tied with aria-describedby. The first option is an empty
 * "Select…" so nothing is chosen by accident.
 */
export function FormSelectField({
  id,
  label,
  options,
  registration,
  error,
  helperText,
  required,
  placeholder = 'Select…',
  sx,
}: {
  id: string;
  label: string;
  options: readonly SelectOption[];
  registration: UseFormRegisterReturn;
  error?: FieldError;
  helperText?: TextFieldProps['helperText'];
  required?: boolean;
  placeholder?: string;
  sx?: TextFieldProps['sx'];
}) {
  const { ref, ...field } = registration;
  const message = useFieldErrorText(error);
  // Like FormTextField: not changed before the page has hydrated (the form's state would not know).
  const hydrated = useHydrated();
  // MUI's TextField (its select part loads with the forms that have a select; FormTextField does without it).
  return (
    <TextField
      {...field}
      id={id}
      label={label}
      select
      inputRef={ref}
      error={!!error}
      helperText={message ?? helperText}
      required={required}
      sx={sx}
      fullWidth
      margin="normal"
      slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { readOnly: !hydrated } }}
    >
      <option value="">{placeholder}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </TextField>
  );
}
