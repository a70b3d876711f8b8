import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';

/**
 * docs/requirements/session.md#inactivity-dialogs: 'Your session has been terminated'; Login goes to the login
 * page and focuses the login element, Stay logged out closes the dialog.
 */
export function SessionEndedDialog() {
  const { dismissEnded, loginRef } = useSession();
  const navigate = useNavigate();
  return (
    <Dialog open aria-labelledby="session-ended-title" aria-describedby="session-ended-text">
      <DialogTitle id="session-ended-title">Your session has been terminated</DialogTitle>
      <DialogContent>
        <DialogContentText id="session-ended-text">
          You have been logged out. Log in again to continue.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={dismissEnded}>Stay logged out</Button>
        <Button
          variant="contained"

          onClick={() => {
            dismissEnded();
            // Already on the login page: focus its field now; otherwise the page focuses it when it opens.
            if (loginRef.current) loginRef.current.focus();
            else void navigate(paths.login.href(), { state: { focusLogin: true } });
          }}
        >
          Login
        </Button>
      </DialogActions>
    </Dialog>
  );
}
