import { Alert, Box, Button, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-error';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { lazyPart } from '../../lib/lazy-part';
import { useEmailedLinkToken } from '../../lib/use-emailed-link-token';
import { CheckingLinkStatus } from '../../components/verification/checking-link-status';

/**
 * The resend form shows only once the link is known to be bad, after hydration: its code (react-hook-form, the
 * contracts' schemas) loads then, and renders in a pass that yields to the browser (lib/lazy-part.tsx).
 */
const resendForm = lazyPart(
  () => import('../../components/verification/resend-verification-form').then((m) => m.ResendVerificationForm),
  { reserve: '12rem' },
);

// The call and its answer's schema (zod and the contracts' registration modules) load when a link is checked, not
// with the page: evaluating them was a long task of the page's first load, and a page opened without a link (or with
// a bad one) never makes the call (docs/decisions/0060).
const verifyEmail = (token: string) => import('./api/registration-api').then((api) => api.verifyEmail(token));

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
      {!missing && !verification.isSuccess && !verification.isError && <CheckingLinkStatus />}
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
          <resendForm.Part />
        </>
      )}
    </Box>
  );
}
