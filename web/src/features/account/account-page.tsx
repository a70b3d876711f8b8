import { Box, Link, List, ListItem, Typography } from '@mui/material';
import type { MouseEvent } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAccount } from './api/account-api';
import { ActivitySection } from './components/activity-section';
import { ChangeEmailSection } from './components/change-email-section';
import { ChangePasswordSection } from './components/change-password-section';
import { ChangePhoneSection } from './components/change-phone-section';
import { LocationsSection } from './components/locations-section';
import { MfaSection } from './components/mfa-section';
import { PasskeysSection } from './components/passkeys-section';
import { ProfileSection } from './components/profile-section';
import { SecurityAnswersSection } from './components/security-answers-section';
import { SessionsSection } from './components/sessions-section';

/** The sections in page order: the id each `PageSection` is given and the name the navigation shows. */
const sections = [
  ['profile', 'Profile'],
  ['email', 'Email address'],
  ['phone', 'Phone number'],
  ['locations', 'Provider locations and roles'],
  ['password', 'Password'],
  ['security-questions', 'Security questions'],
  ['mfa', 'Authenticator app and recovery codes'],
  ['passkeys', 'Passkeys'],
  ['sessions', "Where you're logged in"],
  ['activity', 'Recent activity'],
] as const;

/** Jumps to a section and puts focus on its heading (the URL stays: no router navigation, nothing reloads). */
function goToSection(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const heading = document.getElementById(`${id}-title`);
  if (!heading) return;
  event.preventDefault();
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
}

/**
 * The list of sections: beside the page on a wide screen (it stays in view while the page scrolls), above the
 * sections on a phone.
 */
function SectionNavigation() {
  return (
    <Box
      component="nav"
      aria-label="My account sections"
      data-testid="account-sections-nav"
      sx={{
        position: { md: 'sticky' },
        top: { md: 16 },
        alignSelf: 'start',
        mb: { xs: 3, md: 0 },
        border: { xs: 1, md: 0 },
        borderColor: 'divider',
        borderRadius: 1,
        px: { xs: 2, md: 0 },
      }}
    >
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, mt: { xs: 1, md: 0 } }}>
        Sections
      </Typography>
      <List dense disablePadding sx={{ mb: 1 }}>
        {sections.map(([id, title]) => (
          <ListItem key={id} disableGutters sx={{ py: 0.25 }}>
            <Link href={`#${id}-title`} onClick={(event) => goToSection(event, id)}>
              {title}
            </Link>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

/**
 * `/account`, My account (docs/requirements/session.md#my-account): profile, email, phone, provider locations and
 * roles, password, security questions, authenticator app and recovery codes, passkeys, sessions and recent activity,
 * reached from a list of sections. Each section shows what is on file; its form opens from "Change". Each section
 * loads, fails and succeeds on its own; changes that need a recent login ask for the password through the page's
 * re-auth dialog.
 */
export function AccountPage() {
  useDocumentTitle('My account');
  const account = useAccount();
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        My account
      </Typography>
      <Box sx={{ display: { md: 'grid' }, gridTemplateColumns: { md: '240px minmax(0, 1fr)' }, gap: 4 }}>
        <SectionNavigation />
        <Box sx={{ minWidth: 0 }}>
          <ProfileSection account={account} />
          <ChangeEmailSection account={account} />
          <ChangePhoneSection account={account} />
          <LocationsSection account={account} />
          <ChangePasswordSection account={account} />
          <SecurityAnswersSection account={account} />
          <MfaSection account={account} />
          <PasskeysSection />
          <SessionsSection />
          <ActivitySection />
        </Box>
      </Box>
    </Box>
  );
}
