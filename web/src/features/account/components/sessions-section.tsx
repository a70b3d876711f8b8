import { Box, Button, Chip, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useDeferredValue, useState } from 'react';
import { ErrorMessage, StatusMessage } from '../../../components/status/status-message';
import { accountQueryKeys, endOtherSessions, useAccountSessions } from '../api/account-api';
import { useFocusSectionHeadingAfterRender, formatDateTime } from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { useActionErrorText, useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { ConfirmActionDialog } from '../../../components/dialogs/confirm-action';
import { ScrollTable } from '../../../components/tables/scroll-table';

/** The user's active sessions (this one marked) and "Sign out everywhere else", after a confirmation. */
export function SessionsSection() {
  // Rendered in a pass that yields when the answer comes, as the page takes the account (a deferred value).
  const sessions = useDeferredValue(useAccountSessions());
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<string>();
  const focusHeadingAfterRender = useFocusSectionHeadingAfterRender('sessions');
  const others = sessions.data?.sessions.filter((session) => !session.current).length ?? 0;
  const signOutOthers = useReauthMutation({
    call: endOtherSessions,
    refresh: accountQueryKeys.sessions,
    onSuccess: ({ ended }) => {
      // The button is about to go with the other sessions: focus goes to this section's top, not the page's.
      focusHeadingAfterRender();
      setConfirming(false);
      setStatus(
        ended === 1 ? 'You were signed out of 1 other session.' : `You were signed out of ${ended} other sessions.`,
      );
    },
    onError: () => setConfirming(false),
  });
  const errorText = useActionErrorText(signOutOthers);

  return (
    <>
      <StatusMessage message={status} testId="sessions-status" />
      <SectionQuery query={sessions} loadingLabel="Loading your sessions">
        {(data) => (
          <>
            <ScrollTable label="Your sessions" columns={['Browser', 'IP address', 'Last seen', 'Logged in']}>
              <TableBody>
                {data.sessions.map((session) => (
                  <TableRow
                    key={`${session.createdAt}:${session.ip}:${session.browser}`}
                    data-current={session.current}
                  >
                    <TableCell component="th" scope="row" data-label="Browser">
                      {session.browser}
                      {session.current && <Chip label="This session" size="small" color="primary" sx={{ ml: 1 }} />}
                    </TableCell>
                    <TableCell data-label="IP address">{session.ip ?? 'Unknown'}</TableCell>
                    <TableCell data-label="Last seen">{formatDateTime(session.lastSeenAt)}</TableCell>
                    <TableCell data-label="Logged in">{formatDateTime(session.createdAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
            <Box sx={{ mt: 2 }}>
              {/* A refusal goes next to the button, under a list that may be long (issue 38 item 4). */}
              <ErrorMessage message={errorText} sx={{ mb: 2 }} />
              {others === 0 ? (
                <Typography>You are not logged in anywhere else.</Typography>
              ) : (
                <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
                  Sign out everywhere else
                </Button>
              )}
            </Box>
          </>
        )}
      </SectionQuery>
      {confirming && (
        <ConfirmActionDialog
          title="Sign out everywhere else?"
          confirmLabel="Sign out everywhere else"
          action={signOutOthers}
          onConfirm={() => {
            setStatus(undefined);
            signOutOthers.mutate();
          }}
          onCancel={() => setConfirming(false)}
        >
          {others === 1
            ? 'Your other session ends now. This one stays logged in.'
            : `Your ${others} other sessions end now. This one stays logged in.`}{' '}
          Links we emailed you before, and an email address change you have not confirmed yet, stop working too.
        </ConfirmActionDialog>
      )}
    </>
  );
}
