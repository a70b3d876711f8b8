import { Box, Button, InputAdornment } from '@mui/material';
import { useState } from 'react';
import type { FieldValues, Path } from 'react-hook-form';
import { useFormField } from './form-field';
import { FormTextField, useFieldErrorText, type FormTextFieldProps } from './form-text-field';
import { PasswordPolicyChecklist } from './password-policy-checklist';

export type FormPasswordFieldProps = Omit<FormTextFieldProps, 'type' | 'autoComplete'> & {
  /** `new-password` for a password being chosen (shows the checklist), `current-password` for one being typed. */
  autoComplete: 'new-password' | 'current-password';
  /** With a checklist: the value being typed and the user's own details the password may not contain. */
  checklist?: { password: string; personal?: readonly (string | undefined)[] };
};

/**
 * A password field of the form pattern: paste and password managers work (`autocomplete`), a Show/Hide button
 * reveals what was typed, and for a new password the live policy checklist sits under it, tied to the input with
 * aria-describedby next to the error.
 */
export function FormPasswordField({ id, checklist, error, helperText, slotProps, ...props }: FormPasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const checklistId = `${id}-checklist`;
  // The helper text is there only while it has something to show (an error code's text once the CMS answers).
  const errorText = useFieldErrorText(error);
  const describedBy = [errorText || helperText ? `${id}-helper-text` : undefined, checklist ? checklistId : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <Box>
      <FormTextField
        {...props}
        id={id}
        error={error}
        helperText={helperText}
        type={visible ? 'text' : 'password'}
        slotProps={{
          ...slotProps,
          htmlInput: { spellCheck: false, autoCapitalize: 'none' },
          input: {
            'aria-describedby': describedBy || undefined,
            endAdornment: (
              <InputAdornment position="end">
                <Button
                  size="small"
                  onClick={() => setVisible((shown) => !shown)}
                  aria-controls={id}
                  aria-label={
                    visible
                      ? `Hide ${String(props.label ?? 'password').toLowerCase()}`
                      : `Show ${String(props.label ?? 'password').toLowerCase()}`
                  }
                >
                  {visible ? 'Hide' : 'Show'}
                </Button>
              </InputAdornment>
            ),
          },
        }}
      />
      {checklist && (
        <PasswordPolicyChecklist id={checklistId} password={checklist.password} personal={checklist.personal} />
      )}
    </Box>
  );
}

/** The password the user has now (to confirm it is them), declared by its `name` inside a `FormProvider`. */
export function CurrentPasswordField<T extends FieldValues = FieldValues>({
  name,
  ...props
}: Omit<FormPasswordFieldProps, 'registration' | 'error' | 'autoComplete' | 'checklist'> & { name: Path<T> }) {
  const { registration, error } = useFormField<T>(name);
  return <FormPasswordField {...props} autoComplete="current-password" registration={registration} error={error} />;
}
