import { Box, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The frame of each login-help page: its title (also the tab's), what it is for, and the way back to the login. */
export function LoginHelpLayout({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        {title}
      </Typography>
      {intro && <Typography sx={{ mb: 2 }}>{intro}</Typography>}
      {children}
      <Typography sx={{ mt: 4 }}>
        <Link component={RouterLink} to={paths.login.href()}>
          Back to log in
        </Link>
      </Typography>
    </Box>
  );
}
