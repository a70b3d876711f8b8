import { Button, Stack } from '@mui/material';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { oneTimeLinkPaths, paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';

/** The portal's own menu, logged in (docs/requirements/portal.md#portal-home). */
const portalLinks = [
  { label: 'Portal home', path: paths.portalHome.path, href: paths.portalHome.href() },
  { label: 'DDE access', path: paths.ddeAccess.path, href: paths.ddeAccess.href() },
  { label: 'My account', path: paths.account.path, href: paths.account.href() },
];
/** The administrator's console, for administrators of a location (docs/requirements/staff-accounts.md). */
const adminLink = { label: 'Staff accounts', path: paths.admin.path, href: paths.admin.href() };

/**
 * Logged out: Register and Log in (back to this page afterwards). Logged in: the portal's menu (Portal home, DDE
 * access, My account, and Admin for an administrator of a location) and Log out (server logout, then "You have logged out" at `/logged-out`). While the browser may
 * have a session the server has not confirmed yet, the same place stays empty (the menu, invisible): a logged-in
 * visitor never sees Log in flash, nor the header grow.
 */
export function LoginHeaderControl() {
  const { loggedIn, administersLocation, sessionPending } = useSession();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // While a session is likely (the browser sent its cookie: a shared page's first HTML cannot know whose), the place
  // is kept at the size of the portal's menu, invisible: the header does not grow under the page once the session
  // check answers (issue 39: on a phone the menu takes a second row).
  if (loggedIn || sessionPending) {
    return (
      // On a phone the controls wrap onto a second row rather than hide one (docs/requirements/portal.md): tighter
      // padding and gaps; every destination of the desktop header stays.
      <Stack
        direction="row"
        spacing={{ xs: 0.5, sm: 1 }}
        useFlexGap
        sx={{
          flexWrap: 'wrap',
          '& > .MuiButton-root': { minWidth: 0, px: { xs: 0.75, sm: 1 } },
          ...(loggedIn ? {} : { visibility: 'hidden' }),
        }}
        {...(loggedIn
          ? { component: 'nav', 'aria-label': 'Portal' }
          : { 'data-testid': 'account-control-pending', 'aria-hidden': true })}
      >
        {(administersLocation ? [...portalLinks, adminLink] : portalLinks).map((link) => (
          <Button
            key={link.href}
            color="inherit"
            component={RouterLink}
            to={link.href}
            aria-current={pathname === link.path ? 'page' : undefined}
          >
            {link.label}
          </Button>
        ))}
        <Button
          color="inherit"
          variant="outlined"
          onClick={() => {
            // The confirmation page first, and it ends the session once it shows (its code may still have to load):
            // a protected page left behind must not see the logout and send the user to the login.
            void navigate(paths.loggedOut.href(), { state: { endSession: true } });
          }}
        >
          Log out
        </Button>
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={1}>
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
          to={paths.login.href(
            // Home, the logged-out page and a page of an emailed link (gone after the login) need no way back.
            pathname === paths.home.path || pathname === paths.loggedOut.path || oneTimeLinkPaths.includes(pathname)
              ? undefined
              : `${pathname}${search}`,
          )}
        >
          Log in
        </Button>
      )}
    </Stack>
  );
}
