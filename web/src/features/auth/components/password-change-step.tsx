import { Typography } from '@mui/material';
import { PasswordChangeRequest } from '@portal/contracts';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblemCodes,
  PasswordSchema,
} from '@portal/contracts/password-policy';
import { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { FormSubmitButton } from '../../../components/form/form-submit-button';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { StepHeading } from '../../../components/form/step-heading';
import { submitExpiredPasswordChange } from '../api/auth-api';

const fieldIds = { newPassword: 'expired-new-password' };
const NEW_PASSWORD_MESSAGE = `Enter a new password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`;
/** The request with the policy's length rules; the server applies the whole policy and the history rule. */
const PasswordChangeForm = z.extend(PasswordChangeRequest, { newPassword: PasswordSchema });
/** The server's refusals of the new password are about its field: shown next to it (and once in the summary). */
const fieldForCode = Object.fromEntries(
  [...passwordProblemCodes, 'Password_Reused'].map((code) => [code, 'newPassword' as const]),
);

/**
 * After both factors, when the password is older than the portal's maximum age (docs/requirements/session.md#password-maximum-age):
 * a new password under the shared policy, with its checklist and the generator. The login completes with it.
 */
export function PasswordChangeStep({ maxAgeDays, onDone }: { maxAgeDays?: number; onDone: () => void }) {
  const form = useApiForm<PasswordChangeRequest>({
    schema: PasswordChangeForm,
    schemaMessage: () => NEW_PASSWORD_MESSAGE,
    defaultValues: { newPassword: '' },
    fieldIds,
    submit: async ({ newPassword }) => {
      await submitExpiredPasswordChange(newPassword);
      onDone();
    },
    fieldForCode,
  });

  return (
    <ApiForm
      form={form}
      labelledBy="password-change-title"
      heading={
        // The second-factor step is gone: the heading takes its place for keyboard and screen-reader users.
        <StepHeading id="password-change-title" focus>
          Your password has expired
        </StepHeading>
      }
    >
      <Typography gutterBottom>
        {maxAgeDays
          ? `This portal asks for a new password once yours is ${maxAgeDays} day${maxAgeDays === 1 ? '' : 's'} old. `
          : 'This portal asks for a new password after a set time. '}
        Choose a new one to finish logging in. You cannot use any of your last few passwords.
      </Typography>
      <Typography gutterBottom>Changing it logs you out everywhere else, and we email you a notice.</Typography>
      <NewPasswordFields id={fieldIds.newPassword} name="newPassword" />
      <FormSubmitButton submitting={form.submitting}>Set new password and continue</FormSubmitButton>
    </ApiForm>
  );
}
