import { useWatch, type Control, type FieldValues, type Path } from 'react-hook-form';
import { FormTextField, type FormTextFieldProps } from './form-text-field';

/** "120 characters left" / "3 characters too many": what a counter under a text box says. */
export function charactersLeftText(length: number, max: number): string {
  const left = max - length;
  if (left >= 0) return `${left} ${left === 1 ? 'character' : 'characters'} left (up to ${max})`;
  return `${-left} ${left === -1 ? 'character' : 'characters'} too many (up to ${max})`;
}

/**
 * A multi-line text field with a limit that people see before they reach it: the helper text counts the characters
 * left as they type (tied to the box by aria-describedby, like any helper text). An error replaces the counter.
 */
export function FormCountedTextField<T extends FieldValues>({
  control,
  name,
  max,
  ...props
}: Omit<FormTextFieldProps, 'helperText'> & { control: Control<T>; name: Path<T>; max: number }) {
  const value = useWatch({ control, name }) as unknown;
  const length = typeof value === 'string' ? value.length : 0;
  return (
    <FormTextField
      multiline
      minRows={3}
      {...props}
      helperText={<span data-testid={`${props.id}-counter`}>{charactersLeftText(length, max)}</span>}
    />
  );
}
