import { useFormContext, useFormState, useWatch, type FieldValues, type Path, type PathValue } from 'react-hook-form';
import { useFormField } from './form-field';
import { FormPasswordField } from './form-password-field';
import { GeneratePasswordAction } from './generate-password-action';

/**
 * A new password under the policy (docs/requirements/portal.md#password-policy), the same on every form that asks
 * for one: the field with its live checklist, the confirmation where the form asks for the password twice, and the
 * 'Generate a password' action, which fills both. Fields come by `name` from the form's `FormProvider`.
 */
export function NewPasswordFields<T extends FieldValues = FieldValues>({
  id,
  name,
  label = 'New password',
  confirmation,
  personal,
}: {
  /** The password input's id; the generator's is `${id}-generate`, the checklist's `${id}-checklist`. */
  id: string;
  name: Path<T>;
  label?: string;
  /** The second entry of the password, checked by the form only (the server takes the password once). */
  confirmation?: { id: string; name: Path<T>; label: string };
  /** The user's names, username and email: words from them may not appear in the password. */
  personal?: readonly (string | undefined)[];
}) {
  const { setValue, control } = useFormContext<T>();
  const { submitCount } = useFormState({ control });
  const password = useWatch({ control, name }) as string;
  const confirmationValue = useWatch({ control, name: (confirmation?.name ?? name) as Path<T> }) as string;
  const field = useFormField<T>(name);
  const confirmationField = useFormField<T>((confirmation?.name ?? name) as Path<T>);
  const fill = (generated: string) => {
    // Once the form has been sent, a filled field is checked at once (its error, if any, goes away).
    const options = { shouldValidate: submitCount > 0, shouldDirty: true };
    const value = generated as PathValue<T, Path<T>>;
    setValue(name, value, options);
    if (confirmation) setValue(confirmation.name, value, options);
  };
  return (
    <>
      <FormPasswordField
        id={id}
        label={label}
        autoComplete="new-password"
        registration={field.registration}
        error={field.error}
        checklist={{ password: password ?? '', personal }}
        // A value set by 'Generate a password' (not typed) must lift the label too, or it is drawn over the dots.
        slotProps={{ inputLabel: { shrink: password ? true : undefined } }}
        required
      />
      {confirmation && (
        <FormPasswordField
          id={confirmation.id}
          label={confirmation.label}
          autoComplete="new-password"
          registration={confirmationField.registration}
          error={confirmationField.error}
          slotProps={{ inputLabel: { shrink: confirmationValue ? true : undefined } }}
          required
        />
      )}
      <GeneratePasswordAction id={`${id}-generate`} onGenerated={fill} />
    </>
  );
}
