import { Button, Typography } from '@mui/material';
import { MfaRequest, type LoginCompletion } from '@portal/contracts';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { FormField } from '../../../components/form/form-field';
import { submitMfaCode } from '../api/auth-api';
import { PasskeyLogin } from './passkey-login';

const CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app, or a recovery code.';
const fieldIds = { code: 'mfa-code' };

/** The second factor: a 6-digit TOTP code, one of the recovery codes or a passkey (docs/requirements/session.md#mfa). */
export function MfaStep({ onDone }: { onDone: (completion: LoginCompletion) => void }) {
  // The resolver gives the code without spaces or hyphens ("110 761" → 110761), as the server reads it too.
  const form = useApiForm<MfaRequest>({
    schema: MfaRequest,
    schemaMessage: () => CODE_MESSAGE,
    defaultValues: { code: '' },
    fieldIds,
    submit: async ({ code }) => {
      onDone(await submitMfaCode(code));
    },
    clearOnError: 'code',
  });
  // The login page moves the focus to this step's heading (login-page.tsx StepHeading).

  return (
    <>
      <ApiForm form={form} label="Enter your verification code">
        <Typography>
          Enter the 6-digit code your authenticator app shows. Lost it? Enter one of your recovery codes instead.
        </Typography>
        <FormField
          id={fieldIds.code}
          name="code"
          label="Verification code or recovery code"
          autoComplete="one-time-code"
          required
        />
        <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 2 }}>
          Verify
        </Button>
      </ApiForm>
      <PasskeyLogin onDone={onDone} />
    </>
  );
}
