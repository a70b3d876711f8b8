import { Alert, Button, Typography } from '@mui/material';
import type { ResendVerificationRequest } from '@portal/contracts/registration';
import { useState } from 'react';
import { ApiForm, useApiForm } from '../form/api-form';
import { EmailField } from '../form/form-field';

/** `POST /api/auth/verify-email/resend`: answers the same whether or not an email was sent. */
const resendVerification = async (body: ResendVerificationRequest) => {
  // The HTTP client and the contracts' registration schemas load with the call, not with the form.
  const [{ apiRequest }, { REGISTRATION_ROUTES, ResendVerificationResponse }] = await Promise.all([
    import('../../lib/api-client'),
    import('@portal/contracts/registration'),
  ]);
  return apiRequest(REGISTRATION_ROUTES.resendVerification, {
    method: 'POST',
    body,
    schema: ResendVerificationResponse.shape.data,
  });
};
const schema = () => import('@portal/contracts/registration').then((m) => m.ResendVerificationRequest);

/**
 * "Send a new link" for the registration's email verification (docs/requirements/portal.md#email-verification): on
 * the verification page when a link does not work, and on the login page when the account still waits for it. The
 * answer is the same whether or not a registration waits for that address.
 */
export function ResendVerificationForm({ id = 'verify-resend-email' }: { id?: string }) {
  const [sent, setSent] = useState(false);
  const form = useApiForm<ResendVerificationRequest>({
    schema,
    defaultValues: { email: '' },
    fieldIds: { email: id },
    submit: async (values) => {
      await resendVerification(values);
      setSent(true);
    },
  });
  if (sent)
    return (
      <Alert severity="success" role="status">
        If a registration is waiting for that address, we sent a new verification link to it. The link works for 72
        hours.
      </Alert>
    );
  return (
    <ApiForm
      form={form}
      label="Send a new link"
      heading={
        <Typography component="h2" variant="h6" sx={{ mt: 2 }}>
          Send a new link
        </Typography>
      }
    >
      <EmailField id={id} name="email" label="Email you registered with" required />
      <Button type="submit" variant="outlined" disabled={form.submitting} sx={{ mt: 1 }}>
        Send a new link
      </Button>
    </ApiForm>
  );
}
