import { Alert, Box, Button, CircularProgress, List, ListItem, Stack, Typography } from '@mui/material';
import type { AccessRequestStatus, AccessRequestSummary } from '@portal/contracts/access-requests';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useActionErrorText, useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { lazyDialog } from '../../../components/dialogs/lazy-dialog';
import { ErrorMessage } from '../../../components/status/status-message';
import { formatDate } from '../../../lib/dates';
import { lazyPart } from '../../../lib/lazy-part';
import { ACCESS_REQUESTS_QUERY_KEY, useOwnAccessRequests, withdrawAccessRequest } from '../api/access-requests-api';
import { PORTAL_ACCOUNT_QUERY_KEY } from '../api/portal-home-api';

// The confirmation loads when it is first asked for (issue 39).
const ConfirmActionDialog = lazyDialog(() =>
  import('../../../components/dialogs/confirm-action').then((m) => m.ConfirmActionDialog),
);

/**
 * The request form hydrates on its own (lib/lazy-part.tsx): its fields, validation and form library load beside the
 * page, not before it (issue 39).
 */
export const requestAccessForm = lazyPart(() => import('./request-access-form').then((m) => m.RequestAccessForm), {
  reserve: '22rem',
});

const statusText: Record<AccessRequestStatus, string> = {
  pending: 'Pending: waiting for the location’s administrator',
  approved: 'Approved',
  denied: 'Denied',
  withdrawn: 'Withdrawn',
};

function RequestItem({ request, onWithdraw }: { request: AccessRequestSummary; onWithdraw: () => void }) {
  return (
    <ListItem disableGutters divider sx={{ display: 'block' }} data-testid="access-request">
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1 }}>
        <Box>
          <Typography sx={{ fontWeight: 700 }}>{request.location.legalName}</Typography>
          <Typography variant="body2">
            NPI {request.location.npi} · {request.location.jurisdiction} · Part {request.location.lineOfBusiness} ·
            Asked {formatDate(request.requestedAt)}
            {request.decidedAt && ` · Decided ${formatDate(request.decidedAt)}`}
          </Typography>
          <Typography variant="body2" data-testid="access-request-status">
            Status: {statusText[request.status]}
          </Typography>
          {request.reason && <Typography variant="body2">Reason: {request.reason}</Typography>}
        </Box>
        {request.status === 'pending' && (
          <Box>
            <Button
              variant="outlined"
              onClick={onWithdraw}
              aria-label={`Withdraw the request for ${request.location.legalName}`}
            >
              Withdraw
            </Button>
          </Box>
        )}
      </Stack>
    </ListItem>
  );
}

/**
 * The portal home's "Access requests" (docs/requirements/staff-accounts.md#end-users): each of the user's requests
 * with its status, Withdraw for a pending one (after a confirmation), and a form to ask for another location.
 */
export function AccessRequestsSection() {
  const requests = useOwnAccessRequests();
  const queryClient = useQueryClient();
  const [withdrawing, setWithdrawing] = useState<AccessRequestSummary>();
  const withdraw = useReauthMutation({
    call: (request: AccessRequestSummary) => withdrawAccessRequest(request.id),
    refresh: ACCESS_REQUESTS_QUERY_KEY,
    refreshAfterFailure: true,
    onSettled: () => setWithdrawing(undefined),
  });
  const failureText = useActionErrorText(withdraw);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ACCESS_REQUESTS_QUERY_KEY });
  // A request approved meanwhile: the page's locations and what the person can do follow without a reload.
  const approved = requests.data?.filter((request) => request.status === 'approved').length;
  const seenApproved = useRef(approved);
  useEffect(() => {
    if (approved === undefined) return;
    if (seenApproved.current !== undefined && approved > seenApproved.current)
      void queryClient.invalidateQueries({ queryKey: PORTAL_ACCOUNT_QUERY_KEY });
    seenApproved.current = approved;
  }, [approved, queryClient]);

  return (
    <Box>
      {/* Above the list, scrolled into view when it appears: the Withdraw used may be far below (issue 38 item 4). */}
      <ErrorMessage message={failureText} sx={{ mb: 2 }} />
      {requests.isPending ? (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1 }}>
          <CircularProgress size={24} aria-hidden="true" />
          Loading your access requests…
        </Box>
      ) : requests.isError ? (
        <Alert severity="error">Your access requests could not be loaded.</Alert>
      ) : requests.data.length === 0 ? (
        <Typography data-testid="access-requests-empty">You have not asked for access to a location.</Typography>
      ) : (
        <List disablePadding data-testid="access-requests">
          {requests.data.map((request) => (
            <RequestItem key={request.id} request={request} onWithdraw={() => setWithdrawing(request)} />
          ))}
        </List>
      )}
      <requestAccessForm.Part onDone={refresh} />
      {withdrawing && (
        <ConfirmActionDialog
          title="Withdraw this access request?"
          confirmLabel="Withdraw request"
          action={withdraw}
          onConfirm={() => withdraw.mutate(withdrawing)}
          onCancel={() => setWithdrawing(undefined)}
        >
          Your request for access to {withdrawing.location.legalName} (NPI {withdrawing.location.npi}) will be withdrawn
          and its administrator will no longer see it. You can ask again later.
        </ConfirmActionDialog>
      )}
    </Box>
  );
}
