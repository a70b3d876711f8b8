import { Alert, Box, Button, CircularProgress, List, ListItem, Stack, Typography } from '@mui/material';
import { isJurisdiction } from '@portal/contracts';
import {
  LocationIdentifiers,
  type AccessRequestStatus,
  type AccessRequestSummary,
} from '@portal/contracts/access-requests';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod/mini';
import { ConfirmActionDialog, useActionErrorText, useReauthMutation } from '../../../components/dialogs/confirm-action';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import {
  ProviderLocationFields,
  providerLocationResolver,
  type ProviderLocationValues,
} from '../../../components/form/provider-location-fields';
import { useRegion } from '../../../lib/region/region-context';
import {
  ACCESS_REQUESTS_QUERY_KEY,
  requestAccess,
  useOwnAccessRequests,
  withdrawAccessRequest,
} from '../api/access-requests-api';
import { PORTAL_ACCOUNT_QUERY_KEY } from '../api/portal-home-api';

const statusText: Record<AccessRequestStatus, string> = {
  pending: 'Pending: waiting for the location’s administrator',
  approved: 'Approved',
  denied: 'Denied',
  withdrawn: 'Withdrawn',
};
const dateOnly = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

const fieldIds = {
  npi: 'access-request-npi',
  ptan: 'access-request-ptan',
  tin: 'access-request-tin',
  region: 'access-request-region',
} as const;
const resolver = providerLocationResolver<ProviderLocationValues, typeof LocationIdentifiers>(LocationIdentifiers);

function RequestItem({ request, onWithdraw }: { request: AccessRequestSummary; onWithdraw: () => void }) {
  return (
    <ListItem disableGutters divider sx={{ display: 'block' }} data-testid="access-request">
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1 }}>
        <Box>
          <Typography sx={{ fontWeight: 700 }}>{request.location.legalName}</Typography>
          <Typography variant="body2">
            NPI {request.location.npi} · {request.location.jurisdiction} · Part {request.location.lineOfBusiness} ·
            Asked {dateOnly.format(new Date(request.requestedAt))}
            {request.decidedAt && ` · Decided ${dateOnly.format(new Date(request.decidedAt))}`}
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

/** Ask for access to a further location (a billing service works for many offices). */
function RequestAccessForm({ onDone }: { onDone: () => void }) {
  const { jurisdiction } = useRegion();
  const empty: ProviderLocationValues = {
    npi: '',
    ptan: '',
    tin: '',
    region: isJurisdiction(jurisdiction) ? jurisdiction : '',
  };
  const [sent, setSent] = useState<string>();
  const form = useApiForm<ProviderLocationValues, z.output<typeof LocationIdentifiers>>({
    resolver,
    defaultValues: empty,
    fieldIds,
    submit: async (request) => {
      const answer = await requestAccess(request);
      setSent(answer.request.location.legalName);
      form.form.reset({ ...empty, region: form.form.getValues('region') });
      onDone();
    },
  });
  return (
    <ApiForm
      form={form}
      labelledBy="access-request-form-title"
      heading={
        <>
          <Typography component="h3" variant="h6" id="access-request-form-title" sx={{ mt: 2 }}>
            Request access to another location
          </Typography>
          <Typography sx={{ mb: 1 }}>
            The location&apos;s administrator approves your access. No payment details are needed.
          </Typography>
          {sent && (
            <Alert severity="success" sx={{ mb: 2 }} role="status">
              Your request for {sent} is sent to its administrator.
            </Alert>
          )}
        </>
      }
    >
      <ProviderLocationFields form={form.form} ids={fieldIds} />
      <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 1 }}>
        Request access
      </Button>
    </ApiForm>
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
      {failureText && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failureText}
        </Alert>
      )}
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
      <RequestAccessForm onDone={refresh} />
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
