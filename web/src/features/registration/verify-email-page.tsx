import { Alert, Box, CircularProgress, Link, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { ResendVerificationForm } from '../../components/verification/resend-verification-form';
import { paths } from '../../config/paths';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useEmailedLinkToken } from '../../lib/use-emailed-link-token';
import { verifyEmail } from './api/registration-api';

/** `/verify-email` (docs/requirements/portal.md#email-verification): activates the account of the emailed link. */
export function VerifyEmailPage() {
  useDocumentTitle('Verify your email');
  const verification = useMutation({ mutationFn: verifyEmail });
  const token = useEmailedLinkToken(verification.mutate);
  const errorText = useApiErrorText(verification.error ?? undefined);
  const missing = !token;

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Verify your email
      </Typography>
      {verification.isPending && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress size={24} aria-hidden="true" />
          Checking your link…
        </Box>
      )}
      {verification.isSuccess && (
        <Alert severity="success" role="status" data-testid="verify-email-success">
          Your email address is verified and your account is active.{' '}
          <Link component={RouterLink} to={paths.login.href()}>
            Log in
          </Link>{' '}
          to set up your authenticator app.
        </Alert>
      )}
      {(verification.isError || missing) && (
        <>
          <Alert severity="error" role="alert" data-testid="verify-email-error">
            {missing
              ? 'This page needs the link from your verification email. Open the link from the email.'
              : errorText}
          </Alert>
          <ResendVerificationForm />
        </>
      )}
    </Box>
  );
}
