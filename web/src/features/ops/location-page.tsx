import { Alert, Button, Link, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import type { OpsLocation } from '@portal/contracts/ops';
import { OPS_PAGE_PATHS } from '@portal/contracts/paths';
import { opsPath } from '@portal/contracts/ops-routes';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSection, formatDate, formatDateTime } from '../../components/layouts/page-section';
import { SectionQuery } from '../../components/layouts/section-query';
import { StatusMessage } from '../../components/status/status-message';
import { ScrollTable } from '../../components/tables/scroll-table';
import { useDocumentTitle } from '../../lib/use-document-title';
import { opsQueryKeys, refreshOperatorSession, restoreAdministrator, useOpsLocation } from './api/ops-api';
import { lazyDialog } from '../../components/dialogs/lazy-dialog';
import { RecordLayout } from './components/record-layout';
import { StateChip } from './components/state-chip';
import { accountStatusLabel, linkStatusLabel, locationRoleLabel } from './ops-text';
import { useOperator } from './ops-session';
import { Fact, FactList } from '../../components/layouts/fact-list';
import { BackToSearch } from './person-page';

// An action's form (and the request schemas it checks) loads when the action is chosen (issue 39).
const ActionDialog = lazyDialog(() => import('./components/action-dialog').then((m) => m.ActionDialog));

/**
 * A location's page (docs/requirements/help-desk.md): identifiers, jurisdiction, administrators and their state,
 * people, where its data came from; for a supervisor, restoring an administrator when it has no working one.
 */
export function LocationPage() {
  const { locationId = '' } = useParams();
  const location = useOpsLocation(locationId);
  useDocumentTitle(location.data ? `${location.data.legalName} · help-desk console` : 'A location · help-desk console');
  return (
    <>
      <BackToSearch />
      <SectionQuery query={location} loadingLabel="Loading the location" lines={8}>
        {(data) => <Location location={data} />}
      </SectionQuery>
    </>
  );
}

const personLink = (userId: string, text: string) => (
  <Link component={RouterLink} to={opsPath(OPS_PAGE_PATHS.person, { userId })}>
    {text}
  </Link>
);

function Location({ location }: { location: OpsLocation }) {
  const { supervisor } = useOperator();
  const queryClient = useQueryClient();
  const [restoring, setRestoring] = useState(false);
  const [done, setDone] = useState<string>();
  // Whom a supervisor may restore: people of the location with an enabled account.
  const candidates = location.people
    .filter((person) => person.status !== 'disabled_admin' && person.status !== 'disabled_inactive')
    .map((person) => ({ value: person.userId, label: `${person.name} (${person.username})` }));
  return (
    <>
      <RecordLayout
        title={location.legalName}
        chip={
          <StateChip
            label={location.hasWorkingAdministrator ? 'Has a working administrator' : 'No working administrator'}
            ok={location.hasWorkingAdministrator}
          />
        }
        actionsId="ops-location-actions-title"
        actions={
          <>
            {location.hasWorkingAdministrator ? (
              <Typography>
                The location has a working administrator, who manages its people and administrators.
              </Typography>
            ) : supervisor ? (
              <>
                <Typography sx={{ mb: 2 }}>
                  No one can manage this location&apos;s people. You can make one of them its administrator.
                </Typography>
                <Button variant="contained" disabled={candidates.length === 0} onClick={() => setRestoring(true)}>
                  Restore an administrator
                </Button>
                {candidates.length === 0 && (
                  <Typography variant="body2" sx={{ mt: 1 }}>
                    No one with an enabled account has access to it: the provider must register a person first.
                  </Typography>
                )}
              </>
            ) : (
              <Typography data-testid="ops-restore-supervisor-only">
                No one can manage this location&apos;s people. Only a help-desk supervisor can restore an administrator:
                pass the call to a supervisor.
              </Typography>
            )}
            <StatusMessage message={done} testId="ops-location-outcome" sx={{ mt: 2 }} takeFocus />
          </>
        }
      >
        <PageSection id="ops-identifiers" title="Identifiers">
          <FactList>
            <Fact term="NPI">{location.npi}</Fact>
            <Fact term="PTAN">{location.ptan}</Fact>
            <Fact term="TIN">{location.tin}</Fact>
            <Fact term="Jurisdiction">
              {location.jurisdiction} Part {location.lineOfBusiness}
            </Fact>
            <Fact term="Place">
              {location.city}, {location.state}
            </Fact>
            <Fact term="Status">
              {location.status.charAt(0).toUpperCase() + location.status.slice(1)}
              {location.endDate ? ` (ends ${formatDate(location.endDate)})` : ''}
            </Fact>
            <Fact term="People">{location.peopleCount}</Fact>
          </FactList>
        </PageSection>
        <PageSection id="ops-administrators" title="Administrators">
          {location.accessSuspendedAt && (
            <Alert severity="warning" sx={{ mb: 2 }} data-testid="ops-location-suspended">
              Its people&apos;s access has been suspended since {formatDateTime(location.accessSuspendedAt)}, for want
              of a certified administrator.
            </Alert>
          )}
          {location.administrators.length === 0 ? (
            <Typography>No administrator.</Typography>
          ) : (
            <ScrollTable
              label="Administrators"
              columns={['Name', 'Username', 'Account', 'Access', 'Certified until', 'Counts as administrator']}
            >
              <TableBody>
                {location.administrators.map((admin) => (
                  <TableRow key={admin.userId}>
                    <TableCell component="th" scope="row" data-label="Name">
                      {personLink(admin.userId, admin.name)}
                    </TableCell>
                    <TableCell data-label="Username">{admin.username}</TableCell>
                    <TableCell data-label="Account">{accountStatusLabel[admin.status]}</TableCell>
                    <TableCell data-label="Access">{linkStatusLabel[admin.linkStatus]}</TableCell>
                    <TableCell data-label="Certified until">{formatDate(admin.certifiedUntil)}</TableCell>
                    <TableCell data-label="Counts as administrator">{admin.working ? 'Yes' : 'No'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
          )}
        </PageSection>
        <PageSection id="ops-people" title={`People (${location.peopleCount})`}>
          {location.people.length === 0 ? (
            <Typography>No one has access to this location.</Typography>
          ) : (
            <ScrollTable label="People of the location" columns={['Name', 'Username', 'Role', 'Account']}>
              <TableBody>
                {location.people.map((person) => (
                  <TableRow key={person.userId}>
                    <TableCell component="th" scope="row" data-label="Name">
                      {personLink(person.userId, person.name)}
                    </TableCell>
                    <TableCell data-label="Username">{person.username}</TableCell>
                    <TableCell data-label="Role">{locationRoleLabel[person.role]}</TableCell>
                    <TableCell data-label="Account">{accountStatusLabel[person.status]}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
          )}
          {location.peopleCount > location.people.length && (
            <Typography variant="body2" sx={{ mt: 1 }}>
              The first {location.people.length} of {location.peopleCount} by name.
            </Typography>
          )}
        </PageSection>
        <PageSection id="ops-data-source" title="Where its data came from">
          {location.importRun ? (
            <FactList>
              <Fact term="Import">
                Run {location.importRun.id}: {location.importRun.kind} ({location.importRun.mode})
              </Fact>
              <Fact term="File">{location.importRun.fileName}</Fact>
              <Fact term="Finished">
                {location.importRun.finishedAt ? formatDateTime(location.importRun.finishedAt) : 'Not finished'}
              </Fact>
              <Fact term="Outcome">{location.importRun.outcome}</Fact>
            </FactList>
          ) : (
            <Typography>Not from a data feed: registered or made in the portal.</Typography>
          )}
        </PageSection>
      </RecordLayout>
      {restoring && (
        <ActionDialog
          title={`Restore an administrator to ${location.legalName}`}
          description="The person you choose becomes the location's administrator, certified for a year, and its people's access is no longer suspended. We email them."
          confirmLabel="Restore administrator"
          form="restore"
          people={candidates}
          onCancel={() => setRestoring(false)}
          call={({ reason, userId }) => restoreAdministrator(location.locationId, { reason, userId: userId ?? '' })}
          onDone={(updated, { userId }) => {
            queryClient.setQueryData(opsQueryKeys.location(location.locationId), updated);
            void refreshOperatorSession(queryClient);
            setRestoring(false);
            const chosen = candidates.find((c) => c.value === userId)?.label ?? 'The person';
            setDone(`${chosen} is now an administrator of ${location.legalName}.`);
          }}
        />
      )}
    </>
  );
}
