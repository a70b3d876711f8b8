import { Alert, Box, Link, Typography } from '@mui/material';
import { HELD_FROM_PARAM } from '@portal/contracts/paths';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session/session-context';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { NotAnAdministrator } from '../components/not-an-administrator';
import { useDueRecertifications } from './recertification-api';
import { RecertificationSection } from './recertification-section';

/** The portal pages a held administrator may have asked for, by path, as the header names them. */
const pageNames: Record<string, string> = {
  [paths.portalHome.path]: 'Portal home',
  [paths.admin.path]: 'The staff accounts console',
  [paths.account.path]: 'My account',
  [paths.ddeAccess.path]: 'DDE access',
};

/** What the page says first, by the real state of the administrator's recertifications. */
function introText(links: { overdue: boolean }[] | undefined): string | undefined {
  if (!links) return undefined;
  if (links.some((link) => link.overdue))
    return "Some people's access to your provider locations is past its recertification date and is suspended. Decide for each of them below: until you do, the rest of the portal waits here.";
  if (links.length)
    return "Nobody's access to your provider locations is past its date. The people below fall due within 45 days: you can keep or remove their access now, or later before each date. The rest of the portal is open to you.";
  return "Nobody's access to your provider locations needs recertifying now.";
}

/**
 * `/admin/recertify` (docs/requirements/staff-accounts.md#annual-recertification): where an administrator with overdue
 * recertifications is held after login and on every portal page until they are decided (logging out stays possible
 * from the header), and where the console and the "due soon" email link to. It words its first lines by the real
 * state (overdue, due soon, nothing), and says which page was held and why when the person was sent here.
 */
export function RecertifyPage() {
  useDocumentTitle('Recertify access to your locations');
  // Someone who administers no location has nothing to recertify: the page asks the API nothing (it would refuse).
  const { administersLocation } = useSession();
  const due = useDueRecertifications(administersLocation !== false);
  const links = due.data?.links;
  const overdue = links?.some((link) => link.overdue) ?? false;
  // Sent here by the app (the history state) or by the server's redirect (`?held=`).
  const location = useLocation();
  const heldFrom =
    (location.state as { heldFrom?: string } | null)?.heldFrom ??
    new URLSearchParams(location.search).get(HELD_FROM_PARAM) ??
    undefined;
  const heldName = heldFrom ? (pageNames[heldFrom] ?? 'The page you asked for') : undefined;
  const intro = introText(links);
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Typography component="h1" variant="h4" sx={{ mb: 2 }}>
        Recertify access to your locations
      </Typography>
      {administersLocation === false && <NotAnAdministrator />}
      {heldName && overdue && (
        <Alert severity="info" role="status" sx={{ mb: 2 }} data-testid="recertify-held">
          {heldName} opens once the overdue recertifications below are decided: people whose access is past its date
          must be kept or removed first.
        </Alert>
      )}
      {intro && (
        <Typography sx={{ mb: 3 }} data-testid="recertify-intro">
          {intro}
        </Typography>
      )}
      {administersLocation !== false && (
        <>
          <RecertificationSection />
          <Typography sx={{ mt: 3 }}>
            <Link component={RouterLink} to={paths.admin.href()}>
              Go to the staff accounts console
            </Link>
            {overdue && ' (it opens once the overdue decisions are made)'}
          </Typography>
        </>
      )}
    </Box>
  );
}
