import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import { ResendVerificationRequest } from '@portal/contracts/registration';
import { useMutation } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { FormErrorSummary } from '../../components/form/form-error-summary';
import { FormTextField } from '../../components/form/form-text-field';
import { useApiFormSubmit } from '../../components/form/use-api-form-submit';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useEmailedLinkToken } from '../../lib/use-emailed-link-token';
import { resendVerification, verifyEmail } from './api/registration-api';

/** "Send a new link": the answer is the same whether or not a registration waits for that address. */
function ResendForm() {
  const form = useForm<ResendVerificationRequest>({
    resolver: zodResolver(ResendVerificationRequest),
    defaultValues: { email: '' },
    shouldFocusError: false,
  });
  const [sent, setSent] = useState(false);
  const { errors, submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(
    form,
    { email: 'verify-resend-email' },
    {
      submit: async (values) => {
        await resendVerification(values);
        setSent(true);
      },
    },
  );
  if (sent)
    return (
      <Alert severity="success" role="status">
        If a registration is waiting for that address, we sent a new verification link to it. The link works for 72
        hours.
      </Alert>
    );
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Send a new link">
      <Typography component="h2" variant="h6" sx={{ mt: 2 }}>
        Send a new link
      </Typography>
      <FormErrorSummary errors={summary} submitCount={submitCount} />
      <FormTextField
        id="verify-resend-email"
        label="Email you registered with"
        type="email"
        autoComplete="email"
        registration={form.register('email')}
        error={errors.email}
        required
      />
      <Button type="submit" variant="outlined" disabled={isSubmitting} sx={{ mt: 1 }}>
        Send a new link
      </Button>
    </form>
  );
}

/** `/verify-email` (docs/requirements/portal.md#email-verification): activates the account of the emailed link. */
export function VerifyEmailPage() {
  useDocumentTitle('Verify your email');
  const verification = useMutation({ mutationFn: verifyEmail });
  const token = useEmailedLinkToken(verification.mutate);
  const errorText = useApiErrorText(verification.error ?? undefined);
  const missing = token === '';
  // A link already used on an account that is active: nothing to resend, the way on is the login.
  const alreadyVerified =
    verification.error instanceof ApiError && verification.error.code === 'Email_Already_Verified';

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Verify your email
      </Typography>
      {/* Until the answer is here (also while the token is read): one steady status line, no flash of nothing. */}
      {!missing && !verification.isSuccess && !verification.isError && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress size={24} aria-hidden="true" />
          Checking your link…
        </Box>
      )}
      {verification.isSuccess && (
        <Alert severity="success" role="status" data-testid="verify-email-success">
          <Typography gutterBottom>
            Your email address is verified and your account is active. Log in to set up your authenticator app.
          </Typography>
          <Button component={RouterLink} to={paths.login.href()} variant="contained">
            Log in
          </Button>
        </Alert>
      )}
      {alreadyVerified && (
        <Alert severity="info" role="status" data-testid="verify-email-already">
          <Typography gutterBottom>{errorText}</Typography>
          <Button component={RouterLink} to={paths.login.href()} variant="contained">
            Log in
          </Button>
        </Alert>
      )}
      {((verification.isError && !alreadyVerified) || missing) && (
        <>
          <Alert severity="error" role="alert" data-testid="verify-email-error">
            {missing
              ? 'This page needs the link from your verification email. Open the link from the email.'
              : errorText}
          </Alert>
          <ResendForm />
        </>
      )}
    </Box>
  );
}
