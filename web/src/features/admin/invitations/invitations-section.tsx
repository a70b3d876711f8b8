import { Button, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import type { OpenInvitation } from '@portal/contracts/invitations';
import { useState } from 'react';
import { useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { lazyDialog } from '../../../components/dialogs/lazy-dialog';
import { PageSection, formatDate, useFocusSectionHeadingAfterRender } from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { StatusMessage } from '../../../components/status/status-message';
import { ScrollTable } from '../../../components/tables/scroll-table';
import { invitationsQueryKey, revokeInvitation, useInvitations } from './invitations-api';

// The confirmation loads when it is first asked for (issue 39).
const ConfirmActionDialog = lazyDialog(() =>
  import('../../../components/dialogs/confirm-action').then((m) => m.ConfirmActionDialog),
);

// The invite form loads when chosen.
const InviteDialog = lazyDialog(() => import('./invite-dialog').then((m) => m.InviteDialog));

const roleText = { administrator: 'Administrator', user: 'User' } as const;

/**
 * Invitations on `/admin` (docs/requirements/staff-accounts.md#invitations): "Invite a person" and the invitations
 * of the administrator's locations still waiting to be used, each with Withdraw behind a confirmation. Outcomes are
 * announced in the section's status region.
 */
export function InvitationsSection() {
  const invitations = useInvitations();
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<OpenInvitation>();
  const [status, setStatus] = useState<string>();
  const focusHeadingAfterRender = useFocusSectionHeadingAfterRender('invitations');

  // The dialog's action reads the list again.
  const sent = (invitation: OpenInvitation) => {
    setInviting(false);
    setStatus(`We emailed an invitation to ${invitation.email} for ${invitation.locationName}.`);
  };
  const revoke = useReauthMutation({
    call: (invitation: OpenInvitation) => revokeInvitation(invitation.locationId, invitation.id),
    refresh: invitationsQueryKey,
    // A refusal (someone accepted or withdrew it meanwhile) shows in the dialog, as an alert; the list is read again.
    refreshAfterFailure: true,
    onSuccess: (_result, invitation) => {
      focusHeadingAfterRender();
      setRevoking(undefined);
      setStatus(`The invitation to ${invitation.email} was withdrawn: its link no longer works.`);
    },
  });
  const locations = invitations.data?.locations ?? [];

  return (
    <PageSection id="invitations" title="Invitations">
      <StatusMessage message={status} testId="invitations-status" />
      <Typography sx={{ mb: 2 }}>
        Invite someone by email to one of your locations: they get access as soon as they accept, with no request to
        approve.
      </Typography>
      <Button
        variant="contained"
        onClick={() => {
          setStatus(undefined);
          setInviting(true);
        }}
        disabled={!locations.length}
        sx={{ mb: 2 }}
      >
        Invite a person
      </Button>
      <SectionQuery
        query={invitations}
        loadingLabel="Loading the open invitations"
        isEmpty={(data) => data.invitations.length === 0}
        empty={<Typography data-testid="invitations-empty">No invitation is waiting to be used.</Typography>}
      >
        {(data) => (
          <ScrollTable
            label="Open invitations"
            columns={['Email', 'Location', 'Role', 'Invited by', 'Expires', 'Action']}
          >
            <TableBody>
              {data.invitations.map((invitation) => (
                <TableRow key={invitation.id}>
                  <TableCell component="th" scope="row" data-label="Email">
                    {invitation.email}
                  </TableCell>
                  <TableCell data-label="Location">{invitation.locationName}</TableCell>
                  <TableCell data-label="Role">{roleText[invitation.role]}</TableCell>
                  <TableCell data-label="Invited by">{invitation.invitedBy || '—'}</TableCell>
                  <TableCell data-label="Expires">{formatDate(invitation.expiresAt)}</TableCell>
                  <TableCell data-label="Action">
                    <Button
                      size="small"
                      color="error"
                      onClick={() => {
                        revoke.reset();
                        setRevoking(invitation);
                      }}
                      aria-label={`Withdraw the invitation to ${invitation.email}`}
                    >
                      Withdraw
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </ScrollTable>
        )}
      </SectionQuery>
      {inviting && <InviteDialog locations={locations} onDone={sent} onCancel={() => setInviting(false)} />}
      {revoking && (
        <ConfirmActionDialog
          title="Withdraw the invitation?"
          confirmLabel="Withdraw"
          action={revoke}
          showError
          onConfirm={() => revoke.mutate(revoking)}
          onCancel={() => setRevoking(undefined)}
        >
          The link sent to {revoking.email} for {revoking.locationName} stops working at once. You can invite them again
          later.
        </ConfirmActionDialog>
      )}
    </PageSection>
  );
}
