import { Typography } from '@mui/material';
import type { ForgotUsernameRequest } from '@portal/contracts';
import { useState } from 'react';
import { ApiForm, useApiForm } from '../../components/form/api-form';
import { DateOfBirthField } from '../../components/form/form-date-field';
import { EmailField } from '../../components/form/form-field';
import { FormOutcome } from '../../components/form/form-outcome';
import { FormSubmitButton } from '../../components/form/form-submit-button';
import { LoginHelpLayout } from './components/login-help-layout';

// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const loginHelpApi = () => import('./api/login-help-api');
const schema = () => import('@portal/contracts/login-help').then((m) => m.ForgotUsernameRequest);

const fieldIds = { email: 'forgot-username-email', dob: 'forgot-username-dob' };
/**
 * The email and date of birth carry their own codes (docs/requirements/portal.md#field-rules): `Email_Invalid`;
 * `Date_Of_Birth_Invalid` ('Date of Birth is invalid': the browser sends nothing without a date of birth, and says
 * why) and `Date_Of_Birth_In_Future`.
 */

/**
 * `/login-help/username` (docs/requirements/portal.md#forgot-username): email + date of birth. Whatever the server
 * found, the page says the same thing: the username goes by email, never onto the screen.
 */
export function ForgotUsernamePage() {
  const [sent, setSent] = useState(false);
  const form = useApiForm<ForgotUsernameRequest>({
    schema,
    defaultValues: { email: '', dob: '' },
    fieldIds,
    submit: async (values) => {
      await (await loginHelpApi()).forgotUsername(values);
      setSent(true);
    },
  });

  return (
    <LoginHelpLayout
      title="Forgot username"
      intro="Enter the email address and date of birth on your account. If they match an account, we email its username to that address."
    >
      {sent ? (
        <FormOutcome title="Check your email">
          <Typography>
            If an account matches, we emailed its username to that address. It can take a few minutes to arrive; check
            your spam folder too.
          </Typography>
        </FormOutcome>
      ) : (
        <ApiForm form={form} label="Forgot username">
          <EmailField id={fieldIds.email} name="email" required />
          <DateOfBirthField id={fieldIds.dob} name="dob" />
          <FormSubmitButton submitting={form.submitting}>Email my username</FormSubmitButton>
        </ApiForm>
      )}
    </LoginHelpLayout>
  );
}
