import { Box, Link, List, ListItem, Typography } from '@mui/material';
import { useDeferredValue, type MouseEvent, type ReactNode } from 'react';
import { PageSection } from '../../components/layouts/page-section';
import { lazyPart } from '../../lib/lazy-part';
import { RenderWhenNear, showUpTo } from '../../lib/render-when-near';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAccount } from './api/account-api';

/**
 * The page renders each section's frame and heading; each section's content (forms, dialogs, tables) is a part with
 * a chunk of its own (lib/lazy-part.tsx), which the route starts loading, and opening the page it renders when it
 * comes near the viewport, when jumped to, or at an idle moment, one at a time (lib/render-when-near.tsx): the page's
 * heading and list of sections are ready without waiting for ten sections' renders
 * (docs/decisions/0034-server-rendered-portal-pages.md).
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

/**
 * The sections in page order: the id its `PageSection` is given, its heading (also the navigation's link), and the
 * height its content takes before it renders (about the height of its loading state at a phone's width).
 */
const sections = [
  ['profile', 'Profile', '8rem'],
  ['email', 'Email address', '5.5rem'],
  ['phone', 'Phone number', '5.5rem'],
  ['locations', 'Provider locations and roles', '8rem'],
  ['password', 'Password', '5.5rem'],
  ['security-questions', 'Security questions', '5.5rem'],
  ['mfa', 'Authenticator app and recovery codes', '8rem'],
  ['passkeys', 'Passkeys', '8rem'],
  ['sessions', "Where you're logged in", '8rem'],
  ['activity', 'Recent activity', '8rem'],
] as const;
type SectionId = (typeof sections)[number][0];

/**
 * Jumps to a section and puts focus on its heading (the URL stays: no router navigation, nothing reloads). The
 * sections up to it render first if they have not yet (lib/render-when-near.tsx), so nothing above it moves after.
 */
function goToSection(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const heading = document.getElementById(`${id}-title`);
  if (!heading) return;
  event.preventDefault();
  showUpTo(heading.parentElement ?? heading);
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
 * One section: its heading is in the page from the start (heading navigation, the list of sections); its content
 * renders when it comes near the viewport, is jumped to, or at an idle moment (lib/render-when-near.tsx).
 */
function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  const [, title, reserve] = sections.find(([sectionId]) => sectionId === id)!;
  return (
    <PageSection id={id} title={title}>
      <RenderWhenNear reserve={reserve}>{children}</RenderWhenNear>
    </PageSection>
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
          <Section id="profile">
            <profile.Part account={account} />
          </Section>
          <Section id="email">
            <email.Part account={account} />
          </Section>
          <Section id="phone">
            <phone.Part account={account} />
          </Section>
          <Section id="locations">
            <locations.Part account={account} />
          </Section>
          <Section id="password">
            <password.Part account={account} />
          </Section>
          <Section id="security-questions">
            <securityAnswers.Part account={account} />
          </Section>
          <Section id="mfa">
            <mfa.Part account={account} />
          </Section>
          <Section id="passkeys">
            <passkeys.Part />
          </Section>
          <Section id="sessions">
            <sessions.Part />
          </Section>
          <Section id="activity">
            <activity.Part />
          </Section>
        </Box>
      </Box>
    </Box>
  );
}
