import { Box, Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useEffect, type ComponentType } from 'react';
import { PageSection } from '../../components/layouts/page-section';
import { SectionLinks } from '../../components/layouts/section-links';
import { lazyPart, type LazyPart } from '../../lib/lazy-part';
import { RenderWhenNear } from '../../lib/render-when-near';
import { useDocumentTitle } from '../../lib/use-document-title';
import { accountQueryKeys, useAccount } from './api/account-api';

/**
 * The page renders each section's frame and heading; each section's content (forms, dialogs, tables) is a part with
 * a chunk of its own (lib/lazy-part.tsx), which the route starts loading. Opening the page, the first screen's
 * sections are in the server's HTML and hydrate when their code is there; the others render when they come near the
 * viewport, when jumped to, or at an idle moment, one at a time (lib/render-when-near.tsx): the page's heading and
 * list of sections are ready without waiting for ten sections' renders
 * (docs/decisions/0060).
 */
type AccountQuery = UseQueryResult<Account>;
/** A section's content: the sections that show the account take its query; the others read their own. */
type SectionPart = LazyPart<{ account?: AccountQuery }>;
/**
 * The part's own fallback (shown when `RenderWhenNear` renders it before its chunk is there, which a loaded machine
 * makes likely) reserves the same height as the box before it: a different one moved every section below it twice.
 */
const part = (
  reserve: string,
  load: () => Promise<ComponentType<{ account: AccountQuery }> | ComponentType>,
): SectionPart => lazyPart(load as () => Promise<ComponentType<{ account?: AccountQuery }>>, { reserve });

/**
 * The sections in page order: the id its `PageSection` is given, its heading (also the navigation's link), the height
 * its content takes before it renders (about the height of its loading state at a phone's width), its content,
 * whether that shows the account, and whether the server renders that content (`inServerHtml`).
 *
 * The sections the first screen shows, at a phone's width or a desktop's (profile to locations), are in the server's
 * HTML as they will be once hydrated: a reserved box is never the height of an answer it has not seen (a long email
 * address wraps, a profile's rows stack on a phone), and each box that changed height moved the sections below it
 * in the first screen. Their part keeps that markup until its code is there (lib/lazy-part.tsx). The sections below
 * render when near: they show dates, written in the browser's time zone, which the server does not know.
 */
const sections = [
  {
    id: 'profile',
    inServerHtml: true,
    title: 'Profile',
    reserve: '8rem',
    account: true,
    load: () => import('./components/profile-section').then((m) => m.ProfileSection),
  },
  {
    id: 'email',
    inServerHtml: true,
    title: 'Email address',
    reserve: '5.5rem',
    account: true,
    load: () => import('./components/change-email-section').then((m) => m.ChangeEmailSection),
  },
  {
    id: 'phone',
    inServerHtml: true,
    title: 'Phone number',
    reserve: '5.5rem',
    account: true,
    load: () => import('./components/change-phone-section').then((m) => m.ChangePhoneSection),
  },
  {
    id: 'locations',
    inServerHtml: true,
    title: 'Provider locations and roles',
    reserve: '8rem',
    account: true,
    load: () => import('./components/locations-section').then((m) => m.LocationsSection),
  },
  {
    id: 'password',
    inServerHtml: false,
    title: 'Password',
    reserve: '5.5rem',
    account: true,
    load: () => import('./components/change-password-section').then((m) => m.ChangePasswordSection),
  },
  {
    id: 'security-questions',
    inServerHtml: false,
    title: 'Security questions',
    reserve: '5.5rem',
    account: true,
    load: () => import('./components/security-answers-section').then((m) => m.SecurityAnswersSection),
  },
  {
    id: 'mfa',
    inServerHtml: false,
    title: 'Authenticator app and recovery codes',
    reserve: '8rem',
    account: true,
    load: () => import('./components/mfa-section').then((m) => m.MfaSection),
  },
  {
    id: 'passkeys',
    inServerHtml: false,
    title: 'Passkeys',
    reserve: '8rem',
    account: false,
    load: () => import('./components/passkeys-section').then((m) => m.PasskeysSection),
  },
  {
    id: 'sessions',
    inServerHtml: false,
    title: "Where you're logged in",
    reserve: '8rem',
    account: false,
    load: () => import('./components/sessions-section').then((m) => m.SessionsSection),
  },
  {
    id: 'activity',
    inServerHtml: false,
    title: 'Recent activity',
    reserve: '8rem',
    account: false,
    load: () => import('./components/activity-section').then((m) => m.ActivitySection),
  },
].map((section) => ({ ...section, part: part(section.reserve, section.load) }));

/** The parts of the page that hydrate on their own, in page order (the route loads them). */
export const accountPageParts = sections.map((section) => section.part);

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
      <SectionLinks sections={sections} sx={{ mb: 1 }} />
    </Box>
  );
}

/**
 * Leaving the page drops the account's answers nothing shows any more. Their own `gcTime` of 0 does that for answers
 * the browser fetched, but not for those the server put in the page (`accountSessionQueries`): hydration keeps a query
 * for TanStack Query's default 5 minutes, and a query keeps the longest `gcTime` it has seen.
 */
function useDropAccountDataWhenLeft() {
  const queryClient = useQueryClient();
  useEffect(
    () => () => {
      // After the page's queries have let go (and after StrictMode's remount, which comes back at once).
      setTimeout(() => {
        const cache = queryClient.getQueryCache();
        for (const query of cache.findAll({ queryKey: accountQueryKeys.account }))
          if (query.getObserversCount() === 0) cache.remove(query);
      }, 0);
    },
    [queryClient],
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
  useDropAccountDataWhenLeft();
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
          {/* Each heading is in the page from the start (heading navigation, the list of sections); below the first
              screen, the content renders when it comes near the viewport, is jumped to, or at an idle moment
              (lib/render-when-near.tsx). */}
          {sections.map(({ id, title, reserve, inServerHtml, account: showsAccount, part: { Part } }) => {
            // The others get no prop that changes: their memoized part does not render again with the account.
            const content = <Part account={showsAccount ? account : undefined} />;
            return (
              <PageSection key={id} id={id} title={title}>
                {inServerHtml ? content : <RenderWhenNear reserve={reserve}>{content}</RenderWhenNear>}
              </PageSection>
            );
          })}
        </Box>
      </Box>
    </Box>
  );
}
