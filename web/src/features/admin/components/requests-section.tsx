import { Button, Stack, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { PageSection, formatDate, useFocusSectionHeadingAfterRender } from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { StatusMessage } from '../../../components/status/status-message';
import { ScrollTable } from '../../../components/tables/scroll-table';
import type { AdminAccessRequest } from '@portal/contracts';
import { usePendingRequests } from '../api/admin-api';
import { Pager } from './pager';
import { lazyDialog } from '../../../components/dialogs/lazy-dialog';

// The decisions' dialogs (a form each) load when Approve or Deny is chosen.
const ApproveDialog = lazyDialog(() => import('./decision-dialogs').then((m) => m.ApproveDialog));
const DenyDialog = lazyDialog(() => import('./decision-dialogs').then((m) => m.DenyDialog));

const roleText = { administrator: 'an administrator', user: 'a user' } as const;

/**
 * Pending access requests of the administrator's locations (docs/requirements/staff-accounts.md#requests): who asks,
 * for which location, since when; Approve (choosing the role) or Deny (an optional reason) in a dialog. The outcome
 * is announced in the section's status region; the row goes, so focus goes to the section's heading.
 */
export function RequestsSection() {
  const [page, setPage] = useState(1);
  const requests = usePendingRequests(page);
  const [deciding, setDeciding] = useState<{ request: AdminAccessRequest; decision: 'approve' | 'deny' }>();
  const [status, setStatus] = useState<string>();
  const focusHeadingAfterRender = useFocusSectionHeadingAfterRender('requests');

  // The dialog's action reads the lists again (the row goes); the focus goes to the section's heading.
  const decided = (message: string) => {
    focusHeadingAfterRender();
    setDeciding(undefined);
    setStatus(message);
    if (requests.data?.items.length === 1 && page > 1) setPage(page - 1);
  };

  return (
    <PageSection id="requests" title="Access requests">
      <StatusMessage message={status} testId="requests-status" />
      <SectionQuery
        query={requests}
        loadingLabel="Loading the access requests"
        isEmpty={(data) => data.items.length === 0 && page === 1}
        empty={<Typography data-testid="requests-empty">No one is waiting for access to your locations.</Typography>}
      >
        {(data) => (
          <ScrollTable
            label="Pending access requests"
            columns={['Name', 'Username', 'Email', 'Location', 'Requested', 'Decision']}
          >
            <TableBody>
              {data.items.map((request) => (
                <TableRow key={request.requestId}>
                  <TableCell component="th" scope="row" data-label="Name">
                    {request.name}
                  </TableCell>
                  <TableCell data-label="Username">{request.username}</TableCell>
                  <TableCell data-label="Email">{request.email}</TableCell>
                  <TableCell data-label="Location">
                    {request.legalName} (NPI {request.npi})
                  </TableCell>
                  <TableCell data-label="Requested">{formatDate(request.requestedAt)}</TableCell>
                  <TableCell data-label="Decision">
                    <Stack direction="row" spacing={1}>
                      <Button
                        variant="outlined"
                        size="small"
                        aria-label={`Approve ${request.name}`}
                        onClick={() => setDeciding({ request, decision: 'approve' })}
                      >
                        Approve
                      </Button>
                      <Button
                        variant="outlined"
                        size="small"
                        color="error"
                        aria-label={`Deny ${request.name}`}
                        onClick={() => setDeciding({ request, decision: 'deny' })}
                      >
                        Deny
                      </Button>
                    </Stack>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </ScrollTable>
        )}
      </SectionQuery>
      {requests.data && (
        <Pager
          label="Access requests"
          page={requests.data.page}
          pageSize={requests.data.pageSize}
          total={requests.data.total}
          hasMore={requests.data.hasMore}
          onPage={setPage}
        />
      )}
      {deciding?.decision === 'approve' && (
        <ApproveDialog
          request={deciding.request}
          onCancel={() => setDeciding(undefined)}
          onDone={(role) =>
            decided(
              `Approved: ${deciding.request.name} is now ${roleText[role]} of ${deciding.request.legalName}. We emailed them.`,
            )
          }
        />
      )}
      {deciding?.decision === 'deny' && (
        <DenyDialog
          request={deciding.request}
          onCancel={() => setDeciding(undefined)}
          onDone={() =>
            decided(
              `Denied: ${deciding.request.name} does not get access to ${deciding.request.legalName}. We emailed them.`,
            )
          }
        />
      )}
    </PageSection>
  );
}
