import { Button, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * `/logged-out` (docs/requirements/session.md#logout): where a chosen Log out ends. A plain confirmation, not the
 * session-ended dialog, which is for the inactivity path.
 */
export function LoggedOutPage() {
  useDocumentTitle('You have logged out');
  const { logout } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const endSession = (location.state as { endSession?: boolean } | null)?.endSession === true;
  // The header's Log out comes here first and the session ends once this page shows, so no protected page is on
  // screen to see the logout (its RequireLogin would send the user to the login). The mark is dropped at once so a
  // reload does not log out again.
  useEffect(() => {
    if (!endSession) return;
    void navigate(paths.loggedOut.href(), { replace: true, state: null });
    void logout();
  }, [endSession, logout, navigate]);
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
