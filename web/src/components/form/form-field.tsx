import { get, useFormContext, useFormState, type FieldError, type FieldValues, type Path } from 'react-hook-form';
import { FormTextField, type FormTextFieldProps } from './form-text-field';

/**
 * A field's wiring from the form around it (react-hook-form's `FormProvider`): its registration and its error,
 * found by `name` (a dotted path reaches a nested field). The shared fields take a `name` and use this, so a form
 * declares its fields instead of repeating `register`/`errors` pairs.
 */
export function useFormField<T extends FieldValues = FieldValues>(name: Path<T>) {
  const { register, control } = useFormContext<T>();
  // useFormState subscribes to this field's errors only, so a field shows its error as soon as the form sets it.
  const { errors } = useFormState({ control, name });
  return { registration: register(name), error: get(errors, name) as FieldError | undefined };
}

export type FormFieldProps<T extends FieldValues = FieldValues> = Omit<FormTextFieldProps, 'registration' | 'error'> & {
  name: Path<T>;
};

/** A text field of the form pattern (`FormTextField`) declared by its `name` inside a `FormProvider`. */
export function FormField<T extends FieldValues = FieldValues>({ name, ...props }: FormFieldProps<T>) {
  const { registration, error } = useFormField<T>(name);
  return <FormTextField {...props} registration={registration} error={error} />;
}

/**
 * An email address (docs/requirements/portal.md#field-rules: `EmailSchema` in the contracts, checked by the form's
 * resolver and again by the server): a text field of type email that browsers and password managers fill.
 */
export function EmailField<T extends FieldValues = FieldValues>({
  label = 'Email address',
  ...props
}: Omit<FormFieldProps<T>, 'type' | 'autoComplete'>) {
  return <FormField<T> {...props} label={label} type="email" autoComplete="email" />;
}

/**
 * A phone number (`PhoneSchema` in the contracts: a US number of 10 digits, punctuation allowed). `tel-national` (no country code)
 * where the portal keeps the number, plain `tel` where a person is only being reached.
 */
export function PhoneField<T extends FieldValues = FieldValues>({
  label = 'Phone',
  autoComplete = 'tel-national',
  ...props
}: Omit<FormFieldProps<T>, 'type' | 'autoComplete'> & { autoComplete?: 'tel' | 'tel-national' }) {
  return <FormField<T> {...props} label={label} type="tel" autoComplete={autoComplete} />;
}
