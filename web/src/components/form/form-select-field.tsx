import type { TextFieldProps } from '@mui/material';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FormTextField } from './form-text-field';

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
  return (
    <FormTextField
      id={id}
      label={label}
      select
      registration={registration}
      error={error}
      helperText={helperText}
      required={required}
      sx={sx}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      <option value="">{placeholder}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </FormTextField>
  );
}
