import { Box, Container, Link, Stack, Typography } from '@mui/material';
import { linesOfBusiness, macJurisdictions, statesOf } from '@portal/contracts/jurisdiction-list';
import type { ReactNode } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import { paths } from '../../config/paths';
import { FOCUS_RING_ON_DARK, SiteHeader, SkipLink } from './header-parts';

const footerLinks = [
  { label: 'Contact us', href: paths.topic.href('contact') },
  { label: 'Privacy', href: paths.topic.href('privacy') },
  { label: 'Accessibility', href: paths.topic.href('accessibility') },
];

/** "A and B", "A, B, and C". Not Intl.ListFormat: building one loads its locale data, 16 ms of the first load's script time. */
const and = (items: string[]) =>
  items.length < 3 ? items.join(' and ') : `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
/** "J5 and J8 · Part A and Part B" */
const servedLine = `${and(macJurisdictions)} · ${and(linesOfBusiness.map((line) => `Part ${line}`))}`;
/** "J5 (IA, KS, MO, NE) and J8 (IN, MI)" */
const servedStates = and(
  macJurisdictions.map((jurisdiction) => `${jurisdiction} (${statesOf(jurisdiction).join(', ')})`),
);

/** Header (product name, jurisdiction and account slots), main content, footer. */
export function AppLayout({
  jurisdictionSlot,
  accountSlot,
}: {
  jurisdictionSlot?: ReactNode;
  accountSlot?: ReactNode;
}) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      {/* On a phone: the name on its row, the jurisdiction on the next, the account's links together on a third
          (they never break apart mid-row); from `sm` up, all on one line. */}
      <SiteHeader home={paths.home.href()} name="Medicare Provider Portal" line={servedLine}>
        <Box data-testid="jurisdiction-slot" sx={{ flexBasis: { xs: '100%', sm: 'auto' } }}>
          {jurisdictionSlot}
        </Box>
        <Box
          data-testid="account-slot"
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: { xs: 0.5, sm: 2 },
            // On a phone the account's controls may take two rows (each control stays whole); one row from `sm` up.
            flexWrap: { xs: 'wrap', sm: 'nowrap' },
            whiteSpace: 'nowrap',
          }}
        >
          {accountSlot}
        </Box>
      </SiteHeader>
      <Container
        component="main"
        id="main-content"
        tabIndex={-1}
        maxWidth="lg"
        sx={{ flexGrow: 1, py: 4, outline: 'none' }}
      >
        <Outlet />
      </Container>
      <Box
        component="footer"
        sx={{ bgcolor: 'primary.main', color: 'common.white', py: 3, mt: 4, '--portal-focus-ring': FOCUS_RING_ON_DARK }}
      >
        <Container maxWidth="lg">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 3 }} component="nav" aria-label="Footer">
            {footerLinks.map((link) => (
              <Link key={link.href} component={RouterLink} to={link.href} color="inherit">
                {link.label}
              </Link>
            ))}
          </Stack>
          <Typography variant="body2" sx={{ mt: 2 }}>
            Medicare Administrative Contractor for jurisdictions {servedStates}.
          </Typography>
        </Container>
      </Box>
    </Box>
  );
}
