import {
  Alert,
  Box,
  Button,
  Link,
  List,
  ListItem,
  Stack,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import type { OpsPerson } from '@portal/contracts/ops';
import { OPS_PAGE_PATHS } from '@portal/contracts/paths';
import { opsPath } from '@portal/contracts/ops-routes';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSection, formatDate, formatDateTime } from '../../components/layouts/page-section';
import { Fact, FactList } from '../../components/layouts/fact-list';
import { SectionQuery } from '../../components/layouts/section-query';
import { StatusMessage } from '../../components/status/status-message';
import { ScrollTable } from '../../components/tables/scroll-table';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  opsQueryKeys,
  refreshOperatorSession,
  runPersonAction,
  useOpsPerson,
  type PersonActionKind,
} from './api/ops-api';
import { lazyDialog } from '../../components/dialogs/lazy-dialog';
import { RecordLayout } from './components/record-layout';
import { StateChip } from './components/state-chip';
import { RevealField } from './components/reveal-field';
import { locationLine } from './find-person-page';
import { accountStatusLabel, linkStatusLabel, locationRoleLabel, statusReasonText } from './ops-text';
import { useOperator } from './ops-session';

// An action's form (and the request schemas it checks) loads when the action is chosen (issue 39).
const ActionDialog = lazyDialog(() => import('./components/action-dialog').then((m) => m.ActionDialog));

/** A person's page (docs/requirements/help-desk.md): why they cannot get in, and what the desk can do about it. */
export function PersonPage() {
  const { userId = '' } = useParams();
  const person = useOpsPerson(userId);
  useDocumentTitle(person.data ? `${person.data.name} · help-desk console` : 'A person · help-desk console');
  return (
    <>
      <BackToSearch />
      <SectionQuery query={person} loadingLabel="Loading the person" lines={8}>
        {(data) => <Person person={data} />}
      </SectionQuery>
    </>
  );
}

export function BackToSearch() {
  return (
    <Link component={RouterLink} to={OPS_PAGE_PATHS.console} sx={{ display: 'inline-block', mb: 2 }}>
      Find a person
    </Link>
  );
}

interface ActionSpec {
  kind: PersonActionKind;
  label: string;
  title: string;
  description: string;
  done: string;
  color?: 'primary' | 'error';
  form?: 'reason' | 'identity';
}

/** The actions that apply to the person now, for this operator's role. */
function actionsFor(person: OpsPerson, supervisor: boolean): ActionSpec[] {
  const name = person.name;
  const disabled = person.status === 'disabled_admin' || person.status === 'disabled_inactive';
  const hasMfa = person.mfa.authenticator || person.mfa.passkeys > 0 || person.mfa.recoveryCodesLeft > 0;
  const actions: (ActionSpec | false)[] = [
    person.status === 'locked' && {
      kind: 'unlock',
      label: 'Unlock',
      title: `Unlock ${name}'s account`,
      description: `${name} can log in again at once. We email them that the help desk unlocked the account.`,
      done: `${name}'s account is unlocked. They can log in now.`,
    },
    person.status === 'pending' && {
      kind: 'resend-verification',
      label: 'Resend verification email',
      title: `Send ${name} a new verification email`,
      description: `We send a new email-verification link to the address on the account; earlier links stop working.`,
      done: `A new verification email is on its way to ${name}.`,
    },
    hasMfa && {
      kind: 'reset-mfa',
      label: 'Reset two-step verification',
      title: `Reset ${name}'s two-step verification`,
      description: `Only after you have checked who the caller is. Their authenticator app, passkeys and recovery codes stop working and they are logged out everywhere; at their next login they set up a new authenticator.`,
      done: `${name}'s two-step verification was reset. They set up a new authenticator at their next login.`,
      color: 'error',
      form: 'identity',
    },
    person.sessions.length > 0 && {
      kind: 'end-sessions',
      label: 'End sessions',
      title: `End ${name}'s sessions`,
      description: `${name} is logged out of the portal everywhere (${person.sessions.length === 1 ? '1 session' : `${person.sessions.length} sessions`}).`,
      done: `${name} is logged out everywhere.`,
      color: 'error',
    },
    supervisor &&
      !disabled && {
        kind: 'disable',
        label: 'Disable account',
        title: `Disable ${name}'s account`,
        description: `${name} is logged out everywhere and cannot log in until a supervisor or an administrator enables the account. A location's last working administrator cannot be disabled.`,
        done: `${name}'s account is disabled.`,
        color: 'error',
      },
    supervisor &&
      disabled && {
        kind: 'enable',
        label: 'Enable account',
        title: `Enable ${name}'s account`,
        description: `${name} can log in again with their password and second factor.`,
        done: `${name}'s account is enabled again.`,
      },
  ];
  return actions.filter((a): a is ActionSpec => a !== false);
}

function Person({ person }: { person: OpsPerson }) {
  const { supervisor } = useOperator();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<ActionSpec>();
  const [done, setDone] = useState<string>();
  const actions = actionsFor(person, supervisor);
  const statusChip = <StateChip label={accountStatusLabel[person.status]} ok={person.status === 'active'} />;
  return (
    <>
      <RecordLayout
        title={person.name}
        chip={statusChip}
        actionsId="ops-actions-title"
        actions={
          <>
            {actions.length === 0 ? (
              <Typography>Nothing to do here for {person.name}.</Typography>
            ) : (
              <Stack spacing={1} role="group" aria-labelledby="ops-actions-title">
                {actions.map((action) => (
                  <Button
                    key={action.kind}
                    variant="outlined"
                    color={action.color ?? 'primary'}
                    onClick={() => {
                      setDone(undefined);
                      setOpen(action);
                    }}
                  >
                    {action.label}
                  </Button>
                ))}
              </Stack>
            )}
            {!supervisor && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
                Disabling and enabling accounts is for supervisors.
              </Typography>
            )}
            <StatusMessage message={done} testId="ops-person-outcome" sx={{ mt: 2 }} takeFocus />
          </>
        }
      >
        <PageSection id="ops-status" title="Status and why">
          {person.statusReasons.length === 0 ? (
            <Typography sx={{ mb: 2 }}>Nothing stops {person.name} from logging in.</Typography>
          ) : (
            <List disablePadding data-testid="ops-status-reasons" sx={{ mb: 2 }}>
              {person.statusReasons.map((reason) => (
                <ListItem key={reason.code} disableGutters>
                  <Alert severity="warning" sx={{ width: '100%' }}>
                    {statusReasonText(reason)}
                  </Alert>
                </ListItem>
              ))}
            </List>
          )}
          <FactList>
            <Fact term="Username">{person.username}</Fact>
            <Fact term="Email">
              <RevealField userId={person.userId} field="email" label="email address" masked={person.email} />
            </Fact>
            <Fact term="Phone">
              {person.phone ? (
                <RevealField userId={person.userId} field="phone" label="phone number" masked={person.phone} />
              ) : (
                'None on the account'
              )}
            </Fact>
            <Fact term="Last login">{person.lastLoginAt ? formatDateTime(person.lastLoginAt) : 'Never'}</Fact>
            <Fact term="Account created">{formatDate(person.createdAt)}</Fact>
          </FactList>
        </PageSection>
        <PageSection id="ops-mfa" title="Two-step verification">
          <FactList>
            <Fact term="Authenticator app">{person.mfa.authenticator ? 'Set up' : 'Not set up'}</Fact>
            <Fact term="Passkeys">{person.mfa.passkeys}</Fact>
            <Fact term="Recovery codes left">{person.mfa.recoveryCodesLeft}</Fact>
          </FactList>
        </PageSection>
        <PageSection id="ops-sessions" title="Sessions">
          {person.sessions.length === 0 ? (
            <Typography>Not logged in anywhere.</Typography>
          ) : (
            <ScrollTable label="Open sessions" columns={['Started', 'Last active', 'Browser']}>
              <TableBody>
                {person.sessions.map((session, index) => (
                  <TableRow key={`${session.createdAt}-${index}`}>
                    <TableCell data-label="Started">{formatDateTime(session.createdAt)}</TableCell>
                    <TableCell data-label="Last active">{formatDateTime(session.lastSeenAt)}</TableCell>
                    <TableCell data-label="Browser">{session.userAgent ?? 'Unknown'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
          )}
        </PageSection>
        <PageSection id="ops-locations" title="Locations and roles">
          {person.locations.length === 0 ? (
            <Typography>No provider location.</Typography>
          ) : (
            <ScrollTable
              label={`${person.name}'s locations`}
              columns={['Location', 'Role', 'Access', 'Certified until']}
            >
              <TableBody>
                {person.locations.map((location) => (
                  <TableRow key={location.locationId}>
                    <TableCell component="th" scope="row" data-label="Location">
                      <Box>
                        <Link
                          component={RouterLink}
                          to={opsPath(OPS_PAGE_PATHS.location, { locationId: location.locationId })}
                        >
                          {location.legalName}
                        </Link>
                        <Typography variant="body2" color="text.secondary">
                          {locationLine(location)}
                        </Typography>
                      </Box>
                    </TableCell>
                    <TableCell data-label="Role">{locationRoleLabel[location.role]}</TableCell>
                    <TableCell data-label="Access">{linkStatusLabel[location.linkStatus]}</TableCell>
                    <TableCell data-label="Certified until">{formatDate(location.certifiedUntil)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
          )}
        </PageSection>
        <PageSection id="ops-pending" title="Pending requests and invitations">
          {person.pendingRequests.length === 0 && person.invitations.length === 0 ? (
            <Typography>No pending access request or open invitation.</Typography>
          ) : (
            <List disablePadding>
              {person.pendingRequests.map((request) => (
                <ListItem key={request.requestId} disableGutters>
                  Asked for access to {request.location.legalName} (NPI {request.location.npi}) on{' '}
                  {formatDate(request.requestedAt)}; waiting for its administrator.
                </ListItem>
              ))}
              {person.invitations.map((invitation) => (
                <ListItem key={`${invitation.location.locationId}-${invitation.sentAt}`} disableGutters>
                  Invited to {invitation.location.legalName} (NPI {invitation.location.npi}) as{' '}
                  {locationRoleLabel[invitation.role].toLowerCase()} on {formatDate(invitation.sentAt)}; the link works
                  until {formatDateTime(invitation.expiresAt)}.
                </ListItem>
              ))}
            </List>
          )}
        </PageSection>
        <PageSection id="ops-audit" title="Recent activity">
          {person.auditEvents.length === 0 ? (
            <Typography>No recorded activity.</Typography>
          ) : (
            <ScrollTable label="Recent activity" columns={['When', 'What', 'Who', 'Outcome', 'Reason']}>
              <TableBody>
                {person.auditEvents.map((event, index) => (
                  <TableRow key={`${event.at}-${index}`}>
                    <TableCell data-label="When" sx={{ whiteSpace: { sm: 'nowrap' } }}>
                      {formatDateTime(event.at)}
                    </TableCell>
                    <TableCell data-label="What">{event.label}</TableCell>
                    <TableCell data-label="Who">{event.actor}</TableCell>
                    <TableCell data-label="Outcome">{event.outcome === 'success' ? 'Done' : 'Failed'}</TableCell>
                    <TableCell data-label="Reason">{event.reason ?? '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
          )}
        </PageSection>
      </RecordLayout>
      {open && (
        <ActionDialog
          title={open.title}
          description={open.description}
          confirmLabel={open.label}
          confirmColor={open.color}
          form={open.form}
          onCancel={() => setOpen(undefined)}
          call={(request) =>
            runPersonAction(person.userId, open.kind, {
              reason: request.reason,
              ...(open.form === 'identity' ? { identityChecks: request.identityChecks } : {}),
            })
          }
          onDone={(updated) => {
            queryClient.setQueryData(opsQueryKeys.person(person.userId), updated);
            void refreshOperatorSession(queryClient);
            setOpen(undefined);
            setDone(open.done);
          }}
        />
      )}
    </>
  );
}
