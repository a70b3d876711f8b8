import { Box, Button } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';

// The menu's code loads on the first click: the header is on every page, including the home page's first render.
const LoginHelpMenuList = lazy(() => import('./components/login-help-menu-list'));

const MENU_ID = 'login-help-menu';
const BUTTON_ID = 'login-help-menu-button';

const links = [
  { label: 'Forgot username', href: paths.forgotUsername.href() },
  { label: 'Forgot password', href: paths.forgotPassword.href() },
  { label: 'Reactivate my account', href: paths.reactivate.href() },
  { label: 'Find my administrator', href: paths.findAdmin.href() },
];

/**
 * The header's Help menu of the login-help pages, for logged-out visitors only (logged in, the header shows the
 * portal's own menu). While the session is not known yet it keeps its place, invisible, like Log in beside it.
 */
export function LoginHelpMenu() {
  const { loggedIn, sessionPending } = useSession();
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);
  const open = !!anchorEl;
  if (loggedIn) return null;
  return (
    <Box sx={sessionPending ? { visibility: 'hidden' } : undefined}>
      <Button
        id={BUTTON_ID}
        color="inherit"
        aria-haspopup="true"
        aria-controls={open ? MENU_ID : undefined}
        aria-expanded={open}
        onClick={(event) => setAnchorEl(event.currentTarget)}
      >
        Help
      </Button>
      {open && (
        <Suspense fallback={null}>
          <LoginHelpMenuList
            id={MENU_ID}
            labelledBy={BUTTON_ID}
            anchorEl={anchorEl}
            links={links}
            onClose={() => setAnchorEl(null)}
          />
        </Suspense>
      )}
    </Box>
  );
}
