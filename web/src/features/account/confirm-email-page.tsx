import { Alert, Box, Link, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useEmailedLinkToken } from '../../lib/use-emailed-link-token';
import { confirmEmailChange } from './api/account-api';
import { CheckingLinkStatus } from '../../components/verification/checking-link-status';

/**
 * `/confirm-email` (docs/requirements/session.md#my-account): the link sent to a new email address. Opening it,
 * logged in or not, makes that address the account's.
 */
export function ConfirmEmailPage() {
  useDocumentTitle('Confirm your new email address');
  const confirmation = useMutation({ mutationFn: confirmEmailChange });
  const token = useEmailedLinkToken(confirmation.mutate);
  const errorText = useApiErrorText(confirmation.error ?? undefined);
  const missing = token === '';

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Confirm your new email address
      </Typography>
      {!missing && !confirmation.isSuccess && !confirmation.isError && <CheckingLinkStatus />}
      {confirmation.isSuccess && (
        <Alert severity="success" role="status" data-testid="confirm-email-success">
          Your email address was changed: emails about your account now go to this address. See it on{' '}
          <Link component={RouterLink} to={paths.account.href()}>
            My account
          </Link>
          .
        </Alert>
      )}
      {(confirmation.isError || missing) && (
        <Alert severity="error" role="alert" data-testid="confirm-email-error">
          {missing
            ? 'This page needs the link from the email sent to your new address. Open the link from the email.'
            : errorText}{' '}
          <Link component={RouterLink} to={paths.account.href()}>
            Go to My account
          </Link>
        </Alert>
      )}
    </Box>
  );
}
