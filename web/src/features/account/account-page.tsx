import { Box, Link, List, ListItem, Typography } from '@mui/material';
import { useDeferredValue, type MouseEvent } from 'react';
import { lazyPart } from '../../lib/lazy-part';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAccount } from './api/account-api';

/**
 * Each section hydrates on its own (lib/lazy-part.tsx): its code (forms, dialogs, tables) is a chunk of its own,
 * evaluated and hydrated apart, so the page's heading, navigation and the first sections are ready without waiting
 * for the last ones (docs/decisions/0034-server-rendered-portal-pages.md). The route starts loading them all.
 */
const reserve = { reserve: '10rem' };
const profile = lazyPart(() => import('./components/profile-section').then((m) => m.ProfileSection), reserve);
const email = lazyPart(() => import('./components/change-email-section').then((m) => m.ChangeEmailSection), reserve);
const phone = lazyPart(() => import('./components/change-phone-section').then((m) => m.ChangePhoneSection), reserve);
const locations = lazyPart(() => import('./components/locations-section').then((m) => m.LocationsSection), reserve);
const password = lazyPart(
  () => import('./components/change-password-section').then((m) => m.ChangePasswordSection),
  reserve,
);
const securityAnswers = lazyPart(
  () => import('./components/security-answers-section').then((m) => m.SecurityAnswersSection),
  reserve,
);
const mfa = lazyPart(() => import('./components/mfa-section').then((m) => m.MfaSection), reserve);
const passkeys = lazyPart(() => import('./components/passkeys-section').then((m) => m.PasskeysSection), reserve);
const sessions = lazyPart(() => import('./components/sessions-section').then((m) => m.SessionsSection), reserve);
const activity = lazyPart(() => import('./components/activity-section').then((m) => m.ActivitySection), reserve);

/** The parts of the page that hydrate on their own, in page order (the route loads them). */
export const accountPageParts = [
  profile,
  email,
  phone,
  locations,
  password,
  securityAnswers,
  mfa,
  passkeys,
  sessions,
  activity,
];

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
  // The sections get the account's answer in a render that yields to the browser (a deferred value) instead of the
  // query's own synchronous one: a section that is still server markup then hydrates in that render too.
  const account = useDeferredValue(useAccount());
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        My account
      </Typography>
      <Box sx={{ display: { md: 'grid' }, gridTemplateColumns: { md: '240px minmax(0, 1fr)' }, gap: 4 }}>
        <SectionNavigation />
        <Box sx={{ minWidth: 0 }}>
          <profile.Part account={account} />
          <email.Part account={account} />
          <phone.Part account={account} />
          <locations.Part account={account} />
          <password.Part account={account} />
          <securityAnswers.Part account={account} />
          <mfa.Part account={account} />
          <passkeys.Part />
          <sessions.Part />
          <activity.Part />
        </Box>
      </Box>
    </Box>
  );
}
