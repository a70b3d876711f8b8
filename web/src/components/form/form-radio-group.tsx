import { FormControl, FormControlLabel, FormHelperText, FormLabel, Radio, RadioGroup } from '@mui/material';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import type { SelectOption } from './form-select-field';
import { useFieldErrorText } from './form-text-field';

/**
 * A radio group of the form pattern, bound to react-hook-form: a fieldset whose legend is the question, the error
 * under it tied to the group with aria-describedby. The first radio carries `id`, so the error summary's link
 * lands on the group.
 */
export function FormRadioGroup<T extends FieldValues, R = T>({
  id,
  label,
  name,
  control,
  options,
  helperText,
  required,
}: {
  id: string;
  label: string;
  name: FieldPath<T>;
  /** The form's control (whatever its resolver turns the values into). */
  control: Control<T, unknown, R>;
  options: readonly SelectOption[];
  helperText?: string;
  required?: boolean;
}) {
  const { field, fieldState } = useController({ name, control });
  const message = useFieldErrorText(fieldState.error) ?? helperText;
  const helperId = `${id}-helper-text`;
  return (
    <FormControl component="fieldset" error={!!fieldState.error} required={required} margin="normal" fullWidth>
      <FormLabel component="legend" id={`${id}-label`}>
        {label}
      </FormLabel>
      <RadioGroup
        name={field.name}
        value={field.value ?? ''}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        aria-labelledby={`${id}-label`}
        aria-describedby={message ? helperId : undefined}
        aria-invalid={fieldState.error ? true : undefined}
      >
        {options.map((option, index) => (
          <FormControlLabel
            key={option.value}
            value={option.value}
            disabled={option.disabled}
            label={option.label}
            control={<Radio id={index === 0 ? id : `${id}-${option.value}`} />}
          />
        ))}
      </RadioGroup>
      {message && <FormHelperText id={helperId}>{message}</FormHelperText>}
    </FormControl>
  );
}
