import { Box, Stack, Typography } from '@mui/material';
import { useSession } from '../../lib/session/session-context';
import { SectionSkeleton } from '../../components/layouts/page-section';
import { SectionLinks } from '../../components/layouts/section-links';
import { useDocumentTitle } from '../../lib/use-document-title';
import { lazyPart } from '../../lib/lazy-part';
import { RequestsSection } from './components/requests-section';
import { NotAnAdministrator } from './components/not-an-administrator';
import { consoleActions, consoleSections } from './console-slots';

/**
 * The people editor hydrates on its own (lib/lazy-part.tsx): its search form, cards and actions load beside the page,
 * not before it (issue 39: the console's initial JS ≤ 170 KB).
 */
export const peopleSection = lazyPart(() => import('./components/people-section').then((m) => m.PeopleSection), {
  reserve: '24rem',
});

/**
 * `/admin`, the administrator's console (docs/requirements/staff-accounts.md#the-administrators-console): the
 * sections plugged in by the folders beside this one (recertification), the pending access requests of the
 * administrator's locations, and their people. Each section loads, fails and succeeds on its own; every change asks
 * for the password again (the route's re-authentication dialog) when the login is older than the window.
 */
export function AdminPage() {
  useDocumentTitle('Staff accounts');
  const { administersLocation } = useSession();
  if (administersLocation === false)
    return (
      <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
        <Typography component="h1" variant="h4" gutterBottom>
          Staff accounts
        </Typography>
        <NotAnAdministrator />
      </Box>
    );
  if (administersLocation === undefined)
    // Known from the first HTML when the server renders the page; after a login in the app, asked at once.
    return (
      <Box sx={{ maxWidth: 1200, mx: 'auto', minHeight: '100vh' }}>
        <Typography component="h1" variant="h4" gutterBottom>
          Staff accounts
        </Typography>
        <SectionSkeleton label="Loading Staff accounts" />
      </Box>
    );
  return <Console />;
}

/** The console's sections, for an administrator. */
function Console() {
  const sections = [
    ...consoleSections.map(({ id, title }) => ({ id, title })),
    { id: 'requests', title: 'Access requests' },
    { id: 'people', title: 'People of my locations' },
  ];
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Typography component="h1" variant="h4">
          Staff accounts
        </Typography>
        {consoleActions.length > 0 && (
          <Stack direction="row" spacing={1}>
            {consoleActions.map((Action, index) => (
              <Action key={index} />
            ))}
          </Stack>
        )}
      </Stack>
      <Typography sx={{ mb: 2 }}>
        Approve or deny requests for access to your provider locations, and manage the people who have it. Each change
        is recorded and the person sees it in their account&apos;s recent activity.
      </Typography>
      <Box component="nav" aria-label="Staff accounts sections" sx={{ mb: 3 }}>
        <SectionLinks sections={sections} inline />
      </Box>
      {consoleSections.map(({ id, Component }) => (
        <Component key={id} />
      ))}
      <RequestsSection />
      <peopleSection.Part />
    </Box>
  );
}
