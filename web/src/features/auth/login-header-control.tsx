import { Button, Stack } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';

/**
 * Register and Log in (back to this page afterwards), or My account and Log out (server logout, then the
 * session-ended dialog). While the browser may have a session the server has not confirmed yet, the same place
 * stays empty (Register and Log in, invisible): a logged-in visitor never sees Log in flash.
 */
export function LoginHeaderControl() {
  const { loggedIn, sessionPending, logout } = useSession();
  const { pathname, search } = useLocation();
  if (loggedIn) {
    return (
      <Stack direction="row" spacing={1}>
        <Button
          color="inherit"
          component={RouterLink}
          to={paths.account.href()}
          aria-current={pathname === paths.account.path ? 'page' : undefined}
        >
          My account
        </Button>
        <Button color="inherit" variant="outlined" onClick={() => void logout()}>
          Log out
        </Button>
      </Stack>
    );
  }
  return (
    <Stack
      direction="row"
      spacing={1}
      data-testid={sessionPending ? 'account-control-pending' : undefined}
      sx={sessionPending ? { visibility: 'hidden' } : undefined}
    >
      {pathname !== paths.register.path && (
        <Button color="inherit" component={RouterLink} to={paths.register.href()}>
          Register
        </Button>
      )}
      {pathname !== paths.login.path && (
        <Button
          color="inherit"
          variant="outlined"
          component={RouterLink}
          to={paths.login.href(pathname === paths.home.path ? undefined : `${pathname}${search}`)}
        >
          Log in
        </Button>
      )}
    </Stack>
  );
}
