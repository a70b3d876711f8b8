import { Button, Stack, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  PageSection,
  SectionError,
  SectionSkeleton,
  formatDate,
  useFocusSectionHeadingAfterRender,
} from '../../../components/layouts/page-section';
import { StatusMessage } from '../../../components/status/status-message';
import { ScrollTable } from '../../../components/tables/scroll-table';
import { adminQueryKeys, usePendingRequests, type AdminAccessRequest } from '../api/admin-api';
import { ApproveDialog, DenyDialog } from './decision-dialogs';

const roleText = { administrator: 'an administrator', user: 'a user' } as const;

/**
 * Pending access requests of the administrator's locations (docs/requirements/staff-accounts.md#requests): who asks,
 * for which location, since when; Approve (choosing the role) or Deny (an optional reason) in a dialog. The outcome
 * is announced in the section's status region; the row goes, so focus goes to the section's heading.
 */
export function RequestsSection() {
  const requests = usePendingRequests();
  const queryClient = useQueryClient();
  const [deciding, setDeciding] = useState<{ request: AdminAccessRequest; decision: 'approve' | 'deny' }>();
  const [status, setStatus] = useState<string>();
  const focusHeadingAfterRender = useFocusSectionHeadingAfterRender('requests');

  const decided = async (message: string) => {
    focusHeadingAfterRender();
    setDeciding(undefined);
    setStatus(message);
    await queryClient.invalidateQueries({ queryKey: adminQueryKeys.all });
  };

  return (
    <PageSection id="requests" title="Access requests">
      <StatusMessage message={status} testId="requests-status" />
      {requests.isPending ? (
        <SectionSkeleton label="Loading the access requests" />
      ) : requests.isError ? (
        <SectionError error={requests.error} onRetry={() => void requests.refetch()} />
      ) : requests.data.requests.length === 0 ? (
        <Typography data-testid="requests-empty">No one is waiting for access to your locations.</Typography>
      ) : (
        <ScrollTable label="Pending access requests">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                Name
              </TableCell>
              <TableCell component="th" scope="col">
                Username
              </TableCell>
              <TableCell component="th" scope="col">
                Email
              </TableCell>
              <TableCell component="th" scope="col">
                Location
              </TableCell>
              <TableCell component="th" scope="col">
                Requested
              </TableCell>
              <TableCell component="th" scope="col">
                Decision
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {requests.data.requests.map((request) => (
              <TableRow key={request.requestId}>
                <TableCell component="th" scope="row" data-label="Name">
                  {request.name}
                </TableCell>
                <TableCell data-label="Username">{request.username}</TableCell>
                <TableCell data-label="Email">{request.email}</TableCell>
                <TableCell data-label="Location">
                  {request.legalName} (NPI {request.npi})
                </TableCell>
                <TableCell data-label="Requested">{formatDate(request.createdAt)}</TableCell>
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
      {deciding?.decision === 'approve' && (
        <ApproveDialog
          request={deciding.request}
          onCancel={() => setDeciding(undefined)}
          onDone={(role) =>
            void decided(
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
            void decided(
              `Denied: ${deciding.request.name} does not get access to ${deciding.request.legalName}. We emailed them.`,
            )
          }
        />
      )}
    </PageSection>
  );
}
