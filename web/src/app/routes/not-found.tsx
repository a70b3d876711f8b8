import { Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

export function NotFoundRoute() {
  useDocumentTitle('Page not found', { notFound: true });
  return (
    <>
      <Typography variant="h1" gutterBottom>
        Page not found
      </Typography>
      <Typography sx={{ mb: 3 }}>
        We could not find that page. It may have moved, or the address may be mistyped.
      </Typography>
      <Button component={RouterLink} to={paths.home.href()} variant="contained">
        Go to the home page
      </Button>
    </>
  );
}
