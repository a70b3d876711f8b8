import { Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * `/logged-out` (docs/requirements/session.md#logout): where a chosen Log out ends. A plain confirmation, not the
 * session-ended dialog, which is for the inactivity path.
 */
export function LoggedOutPage() {
  useDocumentTitle('You have logged out');
  return (
    <>
      <Typography component="h1" variant="h4" gutterBottom>
        You have logged out
      </Typography>
      <Typography sx={{ mb: 3 }}>
        Your session has ended on this device. To keep your account safe, close the browser if others use this computer.
      </Typography>
      <Button component={RouterLink} to={paths.login.href()} variant="contained">
        Log in
      </Button>
    </>
  );
}
