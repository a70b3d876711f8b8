import { Box, Button } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';

// The menu's code loads on the first click: the header is on every page, including the home page's first render.
const LoginHelpMenuList = lazy(() => import('./components/login-help-menu-list'));

const MENU_ID = 'login-help-menu';
const BUTTON_ID = 'login-help-menu-button';

const contactUs = { label: 'Contact us', href: paths.topic.href('contact') };
const findAdmin = { label: 'Find my administrator', href: paths.findAdmin.href() };
const loggedOutLinks = [
  { label: 'Forgot username', href: paths.forgotUsername.href() },
  { label: 'Forgot password', href: paths.forgotPassword.href() },
  { label: 'Reactivate my account', href: paths.reactivate.href() },
  findAdmin,
  contactUs,
];
/** Logged in, the login help is of no use: the help desk and the location's administrators stay. */
const loggedInLinks = [contactUs, findAdmin];

/**
 * The header's Help menu: the login-help pages and Contact us for visitors; Contact us and Find my administrator when
 * logged in (docs/requirements/session.md#login). While the session is not known yet it keeps its place, invisible,
 * like Log in beside it.
 */
export function LoginHelpMenu() {
  const { loggedIn, sessionPending } = useSession();
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);
  const open = !!anchorEl;
  const links = loggedIn ? loggedInLinks : loggedOutLinks;
  return (
    <Box sx={sessionPending && !loggedIn ? { visibility: 'hidden' } : undefined}>
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
