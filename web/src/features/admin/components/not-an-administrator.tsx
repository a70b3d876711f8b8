import { Alert, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';

/** What the console's pages say to a logged-in user who administers no location (they make no console call). */
export function NotAnAdministrator() {
  return (
    <Alert severity="info" data-testid="admin-not-administrator">
      Only an administrator of a provider location manages its staff accounts, and you are not one. To ask for access to
      a location, or to find who administers yours, see{' '}
      <Link component={RouterLink} to={paths.findAdmin.href()}>
        find my administrator
      </Link>
      .
    </Alert>
  );
}
