import { Alert, Box, Button, CircularProgress, Link, List, ListItem, Paper, Stack, Typography } from '@mui/material';
import type { Account, DdeRequestType } from '@portal/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { recoveryCodesDue, recoveryCodesDueText, recoveryCodesUnsaved } from '../../lib/recovery-codes-unsaved';
import { useHydrated } from '../../lib/use-hydrated';
import { formatDate } from '../../lib/dates';
import { locationEndedText } from '../../lib/location-ended';
import { useOwnDdeRequests, usePortalAccount } from './api/portal-home-api';
import { AccessRequestsSection } from './components/access-requests-section';

/** One thing the home offers, shown when `visible` says the user may do it. */
interface PortalAction {
  label: string;
  description: string;
  href: string;
  visible?: (account: Account, session: { administersLocation: boolean | undefined }) => boolean;
}

/**
 * What the user can do from here (docs/requirements/portal.md#portal-home). The administrator's console of the staff
 * accounts is shown to administrators only (docs/requirements/staff-accounts.md#the-administrators-console).
 */
const portalActions: PortalAction[] = [
  {
    label: 'Staff accounts',
    description: 'Approve or deny requests for access to your locations and manage the people who have it.',
    href: paths.admin.href(),
    // The session's answer, the same predicate as the console's guard (an active link to a location not suspended).
    visible: (_account, session) => session.administersLocation === true,
  },
  {
    label: 'Request DDE access',
    description: 'Ask for new, changed or removed Direct Data Entry access for one of your provider locations.',
    href: paths.ddeAccess.href(),
    // An end-dated location takes no DDE request (docs/requirements/data-feeds.md#end-dated-locations).
    visible: (account) => account.locations.some((location) => !location.endedOn),
  },
  {
    label: 'My account',
    description: 'Your details, password, authenticator app, passkeys, where you are logged in and recent activity.',
    href: paths.account.href(),
  },
];

const roleText = { administrator: 'Administrator', user: 'User' } as const;
const requestTypeText: Record<DdeRequestType, string> = {
  new: 'New DDE access',
  change: 'Change DDE access',
  remove: 'Remove DDE access',
};
const statusText: Record<string, string> = { received: 'Received' };

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 4 }}>
      <Typography component="h2" variant="h5" id={id} gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1 }}>
      <CircularProgress size={24} aria-hidden="true" />
      {label}
    </Box>
  );
}

function LoadError({ query }: { query: UseQueryResult<unknown> }) {
  const text = useApiErrorText(query.error ?? undefined);
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={() => void query.refetch()}>
          Try again
        </Button>
      }
    >
      {text ?? 'This could not be loaded.'}
    </Alert>
  );
}

function Actions({ account }: { account: Account }) {
  const session = useSession();
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {portalActions
        .filter((action) => action.visible?.(account, session) ?? true)
        .map((action) => (
          <Paper component="li" variant="outlined" key={action.href} sx={{ p: 2, flex: 1 }}>
            <Link component={RouterLink} to={action.href} sx={{ typography: 'h6', display: 'inline-block' }}>
              {action.label}
            </Link>
            <Typography sx={{ mt: 1 }}>{action.description}</Typography>
          </Paper>
        ))}
    </Stack>
  );
}

function Locations({ account }: { account: Account }) {
  if (account.locations.length === 0)
    return (
      <Typography>
        No provider locations are linked to your account yet. Ask your location&apos;s administrator to add you, or{' '}
        <Link component={RouterLink} to={paths.findAdmin.href()}>
          find your administrator
        </Link>
        .
      </Typography>
    );
  return (
    <List disablePadding>
      {account.locations.map((location, index) => (
        <ListItem key={`${index}:${location.legalName}`} disableGutters divider sx={{ display: 'block' }}>
          <Typography sx={{ fontWeight: 700 }}>{location.legalName}</Typography>
          {location.endedOn && (
            <Typography variant="body2" sx={{ fontWeight: 700 }}>
              {locationEndedText(location.endedOn)}
            </Typography>
          )}
          <Typography variant="body2">
            {location.jurisdiction} · Part {location.lineOfBusiness} · TIN {location.tinMasked} · Your role:{' '}
            {roleText[location.role]}
          </Typography>
        </ListItem>
      ))}
    </List>
  );
}

/** New recovery codes are due (not saved in this tab, or few left): said first, with the way to make them. */
function RecoveryCodesNotice({ account }: { account: Account }) {
  const hydrated = useHydrated();
  const unsaved = hydrated && recoveryCodesUnsaved();
  if (!recoveryCodesDue(account.mfa, unsaved)) return null;
  return (
    <Alert severity="warning" sx={{ mb: 3 }} data-testid="recovery-codes-notice">
      {recoveryCodesDueText(account.mfa.recoveryCodesLeft, unsaved)}{' '}
      <Link component={RouterLink} to={`${paths.account.href()}#mfa`}>
        Make new recovery codes on My account
      </Link>
      .
    </Alert>
  );
}

function DdeRequests() {
  const requests = useOwnDdeRequests();
  if (requests.isPending) return <Loading label="Loading your DDE access requests…" />;
  if (requests.isError) return <LoadError query={requests} />;
  if (requests.data.length === 0)
    return <Typography data-testid="dde-requests-empty">You have not sent a DDE access request yet.</Typography>;
  return (
    <List disablePadding data-testid="dde-requests">
      {requests.data.map((request) => (
        <ListItem key={request.referenceNumber} disableGutters divider sx={{ display: 'block' }}>
          <Typography sx={{ fontWeight: 700 }}>
            {requestTypeText[request.requestType]}: {request.legalName}
          </Typography>
          <Typography variant="body2">
            Reference {request.referenceNumber} · Submitted {formatDate(request.submittedAt)} · Status:{' '}
            {statusText[request.status] ?? request.status}
          </Typography>
        </ListItem>
      ))}
    </List>
  );
}

/**
 * `/portal` (docs/requirements/portal.md#portal-home): where a login lands. The user's provider locations and roles,
 * what they can do, their requests for access to locations (docs/requirements/staff-accounts.md#end-users) and the
 * status of their DDE access requests.
 */
export function PortalHomePage() {
  useDocumentTitle('Portal home');
  const account = usePortalAccount();
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Portal home
      </Typography>
      {account.data && <Typography sx={{ mb: 3 }}>Welcome, {account.data.firstName}.</Typography>}
      {account.data && <RecoveryCodesNotice account={account.data} />}
      <Section id="portal-actions-title" title="What you can do">
        {account.isPending ? (
          <Loading label="Loading what you can do…" />
        ) : account.isError ? (
          <LoadError query={account} />
        ) : (
          <Actions account={account.data} />
        )}
      </Section>
      <Section id="portal-locations-title" title="Your provider locations and roles">
        {account.isPending ? (
          <Loading label="Loading your provider locations…" />
        ) : account.isError ? (
          <Typography>Your provider locations could not be loaded.</Typography>
        ) : (
          <Locations account={account.data} />
        )}
      </Section>
      <Section id="portal-access-requests-title" title="Access requests">
        <AccessRequestsSection />
      </Section>
      <Section id="portal-dde-title" title="Your DDE access requests">
        <DdeRequests />
      </Section>
    </Box>
  );
}
