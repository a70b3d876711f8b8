import { Box, Button, Chip, Paper, Stack, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { lazyDialog } from '../../../components/dialogs/lazy-dialog';
import { FormTextField } from '../../../components/form/form-text-field';
import { PageSection, formatDate, formatDateTime } from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { ErrorMessage, StatusMessage } from '../../../components/status/status-message';
import { ScrollTable } from '../../../components/tables/scroll-table';
import { useApiErrorText } from '../../../lib/use-api-error-text';
import { adminQueryKeys, runPersonAction, usePeopleSearch, type PersonAction } from '../api/admin-api';
import { Pager } from './pager';
import type { AccountStatus, PersonLocation, PersonSummary } from '@portal/contracts';

// The confirmation loads when it is first asked for (issue 39).
const ConfirmActionDialog = lazyDialog(() =>
  import('../../../components/dialogs/confirm-action').then((m) => m.ConfirmActionDialog),
);

const statusText: Record<AccountStatus, string> = {
  active: 'Active',
  pending: 'Email not verified yet',
  locked: 'Locked',
  disabled_inactive: 'Disabled (inactivity)',
  disabled_admin: 'Disabled by an administrator',
};
const roleText = { administrator: 'Administrator', user: 'User' } as const;

/**
 * What promoting someone who cannot act now means: they take one of the location's 5 administrator places at once
 * but do not count as the administrator a location must keep (docs/requirements/staff-accounts.md).
 */
function cannotActYet(person: PersonSummary): string {
  const why =
    person.status === 'disabled_admin' || person.status === 'disabled_inactive'
      ? 'is disabled'
      : person.status === 'locked'
        ? 'is locked'
        : person.lastLoginAt === null
          ? 'has never logged in'
          : undefined;
  if (!why) return '';
  return ` ${person.name}'s account ${why}: they take one of the 5 administrator places at once, but cannot manage anything, and do not count as the administrator the location must keep, until they log in.`;
}

/** What each action is called, what its dialog asks and says, and what the status region announces after it. */
function describe(person: PersonSummary, action: PersonAction) {
  const location =
    'locationId' in action ? person.locations.find((l) => l.locationId === action.locationId)?.legalName : undefined;
  const name = person.name;
  switch (action.kind) {
    case 'remove':
      return {
        title: `Remove ${name} from ${location}?`,
        text: `${name} loses access to ${location} at once. To come back they must ask for access again or be invited.`,
        confirm: 'Remove',
        done: `${name} was removed from ${location}.`,
        grants: false,
      };
    case 'make-admin':
      return {
        title: `Make ${name} an administrator of ${location}?`,
        text: `${name} will approve requests and manage the people of ${location}. A location has at most 5 administrators.${cannotActYet(person)}`,
        confirm: 'Make administrator',
        done: `${name} is now an administrator of ${location}.`,
        grants: true,
      };
    case 'revoke-admin':
      return {
        title: `Revoke ${name}'s administrator role at ${location}?`,
        text: `${name} stays a user of ${location} but no longer manages its people. The last administrator of a location cannot be revoked.`,
        confirm: 'Revoke administrator',
        done: `${name} is no longer an administrator of ${location}.`,
        grants: false,
      };
    case 'disable':
      return {
        title: `Disable ${name}'s account?`,
        text: `${name} is logged out everywhere and cannot log in until an administrator re-enables the account.`,
        confirm: 'Disable account',
        done: `${name}'s account is disabled.`,
        grants: false,
      };
    case 'enable':
      return {
        title: `Re-enable ${name}'s account?`,
        text: `${name} can log in again with their password and authenticator.`,
        confirm: 'Re-enable account',
        done: `${name}'s account is enabled again.`,
        grants: true,
      };
    case 'unlock':
      return {
        title: `Unlock ${name}'s account?`,
        text: `${name} can try to log in again at once.`,
        confirm: 'Unlock',
        done: `${name}'s account is unlocked.`,
        grants: true,
      };
    case 'reset-mfa':
      return {
        title: `Reset ${name}'s two-step verification?`,
        text: `${name}'s authenticator app, recovery codes and passkeys stop working and they are logged out everywhere. They set up a new authenticator at their next login.`,
        confirm: 'Reset two-step verification',
        done: `${name}'s two-step verification was reset. They set it up again at their next login.`,
        grants: false,
      };
  }
}

/** The result of an action, or its refusal, shown next to the person's controls. */
export interface ActionOutcome {
  userId: string;
  severity: 'success' | 'error';
  text: string;
}

/**
 * Shows an outcome where the eye is: a polite status for a success, an alert for a refusal, scrolled into view when
 * it appears (the confirmation dialog gave the focus back to the button that opened it).
 */
function OutcomeMessage({ outcome, testId }: { outcome?: ActionOutcome; testId: string }) {
  return (
    <>
      <StatusMessage
        message={outcome?.severity === 'success' ? outcome.text : undefined}
        testId={testId}
        sx={{ mt: 1 }}
      />
      <ErrorMessage
        message={outcome?.severity === 'error' ? outcome.text : undefined}
        testId={`${testId}-error`}
        sx={{ mt: 1 }}
      />
    </>
  );
}

/**
 * The buttons of one person: per location (remove, administrator role) and for the account; only what the caller may
 * do. None on the caller's own card; the account's only when the caller administers every location of the person.
 */
function PersonCard({
  person,
  outcome,
  onAction,
}: {
  person: PersonSummary;
  outcome?: ActionOutcome;
  onAction: (action: PersonAction) => void;
}) {
  const disabled = person.status === 'disabled_admin' || person.status === 'disabled_inactive';
  const action = (label: string, a: PersonAction, color: 'primary' | 'error' = 'primary') => (
    <Button variant="outlined" size="small" color={color} onClick={() => onAction(a)}>
      {label}
    </Button>
  );
  const locationActions = (location: PersonLocation): ReactNode =>
    person.self ? (
      '—'
    ) : (
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {location.role === 'administrator'
          ? action('Revoke administrator', { kind: 'revoke-admin', locationId: location.locationId }, 'error')
          : action('Make administrator', { kind: 'make-admin', locationId: location.locationId })}
        {action('Remove from location', { kind: 'remove', locationId: location.locationId }, 'error')}
      </Stack>
    );
  const headingId = `person-${person.userId}`;
  const accountNote = person.self
    ? 'This is your account. Another administrator of your location can change your role or your account.'
    : person.accountActions
      ? undefined
      : `${person.name} also works for a provider location you do not manage, so only someone who manages all their locations can disable the account, unlock it or reset its two-step verification. You can remove them from your location.`;
  return (
    <Paper component="li" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mb: 2, listStyle: 'none' }}>
      <Typography component="h3" variant="h6" id={headingId}>
        {person.name}
        {person.self && <Chip size="small" label="You" sx={{ ml: 1 }} />}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        <dt>Username</dt>
        <dd style={{ margin: 0 }}>{person.username}</dd>
        <dt>Email</dt>
        <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{person.email}</dd>
        <dt>Status</dt>
        <dd style={{ margin: 0 }}>{statusText[person.status]}</dd>
        <dt>Last login</dt>
        <dd style={{ margin: 0 }}>{person.lastLoginAt ? formatDateTime(person.lastLoginAt) : 'Never'}</dd>
        <dt>Two-step verification</dt>
        <dd style={{ margin: 0 }}>{person.mfaEnrolled ? 'Set up' : 'Not set up'}</dd>
      </Box>
      <ScrollTable label={`${person.name}'s locations`} columns={['Location', 'Role', 'Certified until', 'Actions']}>
        <TableBody>
          {person.locations.map((location) => (
            <TableRow key={location.locationId}>
              <TableCell component="th" scope="row" data-label="Location">
                {location.legalName} (NPI {location.npi})
                {location.status !== 'active' && <Chip size="small" label={location.status} sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell data-label="Role">{roleText[location.role]}</TableCell>
              <TableCell data-label="Certified until">
                {location.certifiedUntil ? formatDate(location.certifiedUntil) : '—'}
              </TableCell>
              <TableCell data-label="Actions">{locationActions(location)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </ScrollTable>
      {accountNote ? (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="person-account-note">
          {accountNote}
        </Typography>
      ) : (
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ flexWrap: 'wrap', mt: 1 }}
          aria-label={`${person.name}'s account`}
          role="group"
        >
          {disabled
            ? action('Re-enable account', { kind: 'enable' })
            : action('Disable account', { kind: 'disable' }, 'error')}
          {person.status === 'locked' && !person.unlockNeedsHelpDesk && action('Unlock', { kind: 'unlock' })}
          {person.mfaEnrolled && action('Reset two-step verification', { kind: 'reset-mfa' }, 'error')}
        </Stack>
      )}
      {!accountNote && person.status === 'locked' && person.unlockNeedsHelpDesk && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="unlock-needs-help-desk">
          {person.name} had too many wrong passwords in the last 24 hours, so only the help desk can unlock this account
          now. Ask them to call the provider contact center (see Contact us).
        </Typography>
      )}
      <OutcomeMessage outcome={outcome} testId="person-status" />
    </Paper>
  );
}

/**
 * People of the administrator's locations (docs/requirements/staff-accounts.md#people-of-my-locations): search by
 * name, username or email; per person their status, last login, authenticator, and their links to these locations
 * only; each action after a confirmation, asking for the password again when the login is old.
 */
export function PeopleSection() {
  // A plain useForm, not useApiForm (docs/decisions/0079-console-actions.md): the search sends nothing to the API, it
  // sets the query of the list below.
  const searchForm = useForm<{ q: string }>({ defaultValues: { q: '' } });
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const people = usePeopleSearch(query, page);
  const [confirming, setConfirming] = useState<{ person: PersonSummary; action: PersonAction }>();
  const [result, setResult] = useState<{ userId: string; done?: string; error?: unknown }>();
  const errorText = useApiErrorText(result?.error);
  // A refusal's text comes from the CMS (looked up once it is known); until then nothing shows.
  const outcome: ActionOutcome | undefined = result?.done
    ? { userId: result.userId, severity: 'success', text: result.done }
    : result?.error !== undefined && errorText
      ? { userId: result.userId, severity: 'error', text: errorText }
      : undefined;

  const search = searchForm.handleSubmit(({ q }) => {
    setResult(undefined);
    setQuery(q.trim());
    setPage(1);
  });

  const run = useReauthMutation({
    call: ({ person, action }: { person: PersonSummary; action: PersonAction }) =>
      runPersonAction(person.userId, action),
    refresh: adminQueryKeys.all,
    // A refusal may mean the list is stale (another administrator acted meanwhile): show what holds now.
    refreshAfterFailure: true,
    onSuccess: (_result, { person, action }) =>
      setResult({ userId: person.userId, done: describe(person, action).done }),
    onError: (error, { person }) => setResult({ userId: person.userId, error }),
    onSettled: () => setConfirming(undefined),
  });

  const described = confirming && describe(confirming.person, confirming.action);
  const listed = Boolean(outcome && people.data?.items.some((person) => person.userId === outcome.userId));
  return (
    <PageSection id="people" title="People of my locations">
      <Box
        component="form"
        role="search"
        aria-label="Search people"
        onSubmit={search}
        noValidate
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
      >
        <FormTextField
          id="people-search"
          label="Name, username or email"
          registration={searchForm.register('q')}
          type="search"
          sx={{ flex: '1 1 16rem' }}
        />
        <Button type="submit" variant="contained" sx={{ mt: 2, height: 56 }}>
          Search
        </Button>
      </Box>
      {/* The outcome for someone no longer listed (removed from the last of these locations) shows here. */}
      <OutcomeMessage outcome={listed ? undefined : outcome} testId="people-status" />
      <SectionQuery
        query={people}
        loadingLabel="Loading the people of your locations"
        lines={6}
        isEmpty={(data) => data.items.length === 0}
        empty={
          <Typography data-testid="people-empty">
            {query ? `No one of your locations matches "${query}".` : 'No one else belongs to your locations yet.'}
          </Typography>
        }
      >
        {(data) => (
          <>
            <Typography data-testid="people-count" sx={{ my: 1 }}>
              {data.total === 1 ? '1 person' : `${data.total} people`}
              {query ? ` match "${query}"` : ''}.
            </Typography>
            <Box component="ul" aria-label="People" sx={{ p: 0, m: 0 }}>
              {data.items.map((person) => (
                <PersonCard
                  key={person.userId}
                  person={person}
                  outcome={outcome?.userId === person.userId ? outcome : undefined}
                  onAction={(action) => {
                    setResult(undefined);
                    setConfirming({ person, action });
                  }}
                />
              ))}
            </Box>
            <Pager
              label="People"
              page={data.page}
              pageSize={data.pageSize}
              total={data.total}
              hasMore={data.hasMore}
              onPage={setPage}
            />
          </>
        )}
      </SectionQuery>
      {confirming && described && (
        <ConfirmActionDialog
          title={described.title}
          confirmLabel={described.confirm}
          confirmColor={described.grants ? 'primary' : 'error'}
          action={run}
          onConfirm={() => {
            setResult(undefined);
            run.mutate(confirming);
          }}
          onCancel={() => setConfirming(undefined)}
        >
          {described.text}
        </ConfirmActionDialog>
      )}
    </PageSection>
  );
}
