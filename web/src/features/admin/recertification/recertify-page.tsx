import { Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { RecertificationSection } from './recertification-section';

/**
 * `/admin/recertify`: where an administrator with overdue recertifications is held after login and on every portal
 * page until they are decided (docs/requirements/staff-accounts.md#annual-recertification); logging out stays possible
 * from the header. The console links here too.
 */
export function RecertifyPage() {
  useDocumentTitle('Recertify access to your locations');
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Typography component="h1" variant="h4" sx={{ mb: 2 }}>
        Recertify access to your locations
      </Typography>
      <Typography sx={{ mb: 3 }}>
        Some people&apos;s access to your provider locations is past its recertification date. Decide for each of them
        before you continue in the portal.
      </Typography>
      <RecertificationSection />
      <Typography sx={{ mt: 3 }}>
        <Link component={RouterLink} to={paths.admin.href()}>
          Go to the staff accounts console
        </Link>
      </Typography>
    </Box>
  );
}
