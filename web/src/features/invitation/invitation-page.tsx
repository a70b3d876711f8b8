import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import type { LocationRole } from '@portal/contracts/admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { CheckingLinkStatus } from '../../components/verification/checking-link-status';
import { paths } from '../../config/paths';
import {
  forgetInvitationToken,
  rememberedInvitationToken,
  rememberInvitationToken,
  rememberInvitedEmail,
} from '../../lib/invitation-token';
import { useSession } from '../../lib/session/session-context';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useEmailedLinkToken } from '../../lib/use-emailed-link-token';
import { acceptInvitation, lookupInvitation } from './api/invitation-api';

const roleText = (role: LocationRole) => (role === 'administrator' ? 'an administrator' : 'a user');

/** The expiry as a date in the reader's own calendar (never a clock time in another time zone). */
const dayText = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/**
 * `/invitation` (docs/requirements/staff-accounts.md#invitations): the page of an administrator's emailed invitation.
 * It reads the token from the link's fragment (then clears it from the address bar), keeps it in this tab for the
 * way on, and shows the location and role the server answers. A person without an account creates one (the end-user
 * registration, which takes the invitation along); someone with an account logs in, comes back here and confirms.
 */
export function InvitationPage() {
  useDocumentTitle('Your invitation');
  const { loggedIn, sessionPending } = useSession();
  const queryClient = useQueryClient();
  // The link's token (stored at once for the way on); '' when the page was opened without one, e.g. back from login.
  const linkToken = useEmailedLinkToken(rememberInvitationToken);
  const [storedToken] = useState(rememberedInvitationToken);
  const token = linkToken === undefined ? undefined : linkToken || storedToken;

  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => lookupInvitation(token!),
    enabled: !!token,
    retry: false,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token!),
    onSuccess: () => {
      forgetInvitationToken();
      // The account's locations changed: every cached view of them is stale (not the invitation: it is used now).
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'invitation' });
    },
  });
  const lookupError = useApiErrorText(invitation.error ?? undefined);
  const acceptError = useApiErrorText(accept.error ?? undefined);
  // A refused token is dead (used, withdrawn, expired or unknown): the tab stops carrying it.
  useEffect(() => {
    if (invitation.isError) forgetInvitationToken();
  }, [invitation.isError]);
  // The invited address goes with the token to the registration, which fills it in.
  useEffect(() => {
    if (invitation.data) rememberInvitedEmail(invitation.data.email);
  }, [invitation.data]);

  const missing = token === '';
  const data = invitation.data;

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Your invitation
      </Typography>
      {(token === undefined || invitation.isPending) && !missing && <CheckingLinkStatus />}
      {(missing || invitation.isError) && (
        <Alert severity="error" role="alert" data-testid="invitation-error">
          {missing ? 'This page needs the link from your invitation email. Open the link from the email.' : lookupError}{' '}
          <Link component={RouterLink} to={paths.home.href()}>
            Go to the home page
          </Link>
        </Alert>
      )}
      {data && (
        <>
          <Typography sx={{ mb: 2 }} data-testid="invitation-summary">
            You are invited to use the portal for <strong>{data.locationName}</strong> as {roleText(data.role)} of that
            provider location. The invitation works once, until {dayText(data.expiresAt)}.
          </Typography>
          {accept.isSuccess ? (
            <Alert severity="success" role="status" data-testid="invitation-accepted">
              {accept.data.locationName} is now on your account, as {roleText(accept.data.role)}.{' '}
              <Link component={RouterLink} to={paths.portalHome.href()}>
                Go to the portal home
              </Link>
            </Alert>
          ) : sessionPending ? null : loggedIn ? (
            <Box component="section" aria-labelledby="invitation-confirm-title">
              <Typography id="invitation-confirm-title" component="h2" variant="h6" gutterBottom>
                Add this location to your account
              </Typography>
              <Typography sx={{ mb: 2 }}>
                The invitation was sent to an email address: it can be accepted only by the account that has that
                address.
              </Typography>
              {accept.isError && (
                <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="invitation-accept-error">
                  {acceptError}
                </Alert>
              )}
              <Button variant="contained" onClick={() => accept.mutate()} disabled={accept.isPending}>
                Accept the invitation
              </Button>
            </Box>
          ) : (
            <Stack spacing={3}>
              <Box component="section" aria-labelledby="invitation-new-title">
                <Typography id="invitation-new-title" component="h2" variant="h6" gutterBottom>
                  New to the portal?
                </Typography>
                <Typography sx={{ mb: 1 }}>
                  Create your account with the email address the invitation was sent to: the location is on it as soon
                  as the account exists, with no request to wait for.
                </Typography>
                <Button variant="contained" component={RouterLink} to={paths.registerUser.href()}>
                  Create an account
                </Button>
              </Box>
              <Box component="section" aria-labelledby="invitation-existing-title">
                <Typography id="invitation-existing-title" component="h2" variant="h6" gutterBottom>
                  Already have an account?
                </Typography>
                <Typography sx={{ mb: 1 }}>
                  Log in with it; you come back to this page to accept the invitation.
                </Typography>
                <Button variant="outlined" component={RouterLink} to={paths.login.href(paths.invitation.href())}>
                  I already have an account
                </Button>
              </Box>
            </Stack>
          )}
        </>
      )}
    </Box>
  );
}
