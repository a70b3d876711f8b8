import { Checkbox, FormControlLabel, Link, Typography } from '@mui/material';
import type { ForgotPasswordNext, ForgotPasswordRequest } from '@portal/contracts';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiForm, useApiForm } from '../../components/form/api-form';
import { EmailField, FormField } from '../../components/form/form-field';
import { FormOutcome } from '../../components/form/form-outcome';
import { FormSubmitButton } from '../../components/form/form-submit-button';
import { paths } from '../../config/paths';
import { LoginHelpLayout } from './components/login-help-layout';

const fieldIds = {
  username: 'forgot-password-username',
  email: 'forgot-password-email',
  isInternal: 'forgot-password-internal',
};
const fieldMessages: Record<string, string> = {
  username: 'Enter your username.',
  // The email's message comes with the one email rule (`Email_Invalid`, docs/requirements/portal.md#field-rules).
};
const schema = () => import('@portal/contracts/login-help').then((m) => m.ForgotPasswordRequest);
const schemaMessage = (field: string) => fieldMessages[field];
// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const loginHelpApi = () => import('./api/login-help-api');

function Outcome({ next }: { next: ForgotPasswordNext }) {
  if (next === 'enterprise-directory')
    return (
      <FormOutcome title="Reset your password through the enterprise directory" severity="info">
        <Typography gutterBottom>
          Internal users&apos; passwords belong to the enterprise directory, so this portal cannot reset them and sends
          no email.
        </Typography>
        <Typography>
          Use your organisation&apos;s self-service password reset for your network account, or contact your IT service
          desk. Then log in here with the new password.
        </Typography>
      </FormOutcome>
    );
  return (
    <FormOutcome title="Check your email">
      <Typography gutterBottom>
        If an account matches, we emailed a link to reset its password. The link works once, for 30 minutes.
      </Typography>
      <Typography>
        No email after a few minutes? Check your spam folder, or{' '}
        <Link component={RouterLink} to={paths.forgotUsername.href()}>
          check your username
        </Link>
        .
      </Typography>
    </FormOutcome>
  );
}

/**
 * `/login-help/password` (docs/requirements/portal.md#forgot-password): username + email, and whether the user is
 * internal staff. External users always see the same confirmation; internal users get the directory instructions.
 */
export function ForgotPasswordPage() {
  const [next, setNext] = useState<ForgotPasswordNext>();
  const form = useApiForm<ForgotPasswordRequest>({
    schema,
    schemaMessage,
    defaultValues: { username: '', email: '', isInternal: false },
    fieldIds,
    submit: async (values) => setNext((await (await loginHelpApi()).forgotPassword(values)).next),
  });
  const { ref: internalRef, ...internalField } = form.form.register('isInternal');

  return (
    <LoginHelpLayout
      title="Forgot password"
      intro="Enter your username and the email address on your account. We email you a link to choose a new password."
    >
      {next ? (
        <Outcome next={next} />
      ) : (
        <ApiForm form={form} label="Forgot password">
          <FormField id={fieldIds.username} name="username" label="Username" autoComplete="username" required />
          <EmailField id={fieldIds.email} name="email" required />
          <FormControlLabel
            control={
              <Checkbox id={fieldIds.isInternal} slotProps={{ input: { ref: internalRef } }} {...internalField} />
            }
            label="I am an internal user (contractor staff)"
          />
          <div>
            <FormSubmitButton submitting={form.submitting}>Email me a reset link</FormSubmitButton>
          </div>
        </ApiForm>
      )}
    </LoginHelpLayout>
  );
}
