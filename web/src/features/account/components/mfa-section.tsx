import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { MfaEnrollStart } from '@portal/contracts/auth';
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { RecoveryCodes } from '../../../components/mfa/recovery-codes';
import { useActionErrorText, useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { ErrorMessage, StatusMessage } from '../../../components/status/status-message';
import { accountQueryKeys, confirmMfaReset, renewRecoveryCodes, startMfaReset } from '../api/account-api';
import { recoveryCodesDue, recoveryCodesDueText, recoveryCodesUnsaved } from '../../../lib/recovery-codes-unsaved';
import { useHydrated } from '../../../lib/use-hydrated';
import { formatDate } from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { lazyPart } from '../../../lib/lazy-part';

// The setup form (its code's schema, with zod) loads when a new app is asked for, not with the section
// (docs/decisions/0060).
const setupForm = lazyPart(
  () => import('../../../components/mfa/authenticator-setup-form').then((m) => m.AuthenticatorSetupForm),
  { reserve: '24rem' },
);

type Stage =
  | { name: 'summary' }
  | { name: 'setup'; enrolment: MfaEnrollStart }
  | { name: 'codes'; codes: string[]; renewed?: boolean };

/**
 * The authenticator app and recovery codes: MFA reset sets up a new app (new QR code and key, confirmed with a
 * code) and then shows 10 new recovery codes; the old app, codes and passkeys stop working and other sessions end
 * (docs/decisions/0030-passkeys-and-credential-changes.md).
 */
export function MfaSection({ account }: { account: UseQueryResult<Account> }) {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ name: 'summary' });
  const [status, setStatus] = useState<string>();
  // Each step replaces the controls the user was on: focus follows to the new step.
  const stageRef = useRef<HTMLDivElement>(null);
  const shownStage = useRef(stage.name);
  useEffect(() => {
    if (shownStage.current === stage.name) return;
    shownStage.current = stage.name;
    stageRef.current?.focus();
  }, [stage.name]);

  const hydrated = useHydrated();
  const unsaved = hydrated && recoveryCodesUnsaved();
  // Re-authenticated calls (docs/decisions/0073): the password is asked again when the login is old.
  const renew = useReauthMutation({
    call: renewRecoveryCodes,
    onSuccess: ({ recoveryCodes }) => setStage({ name: 'codes', codes: recoveryCodes, renewed: true }),
  });
  const start = useReauthMutation({
    call: startMfaReset,
    onSuccess: (enrolment) => setStage({ name: 'setup', enrolment }),
  });
  const renewErrorText = useActionErrorText(renew);
  const startErrorText = useActionErrorText(start);
  // One refusal at a time, next to the button that was used (issue 38 item 4).
  const act = (action: typeof renew | typeof start, other: typeof renew | typeof start) => {
    setStatus(undefined);
    other.reset();
    action.mutate();
  };

  const finish = (renewed: boolean | undefined) => {
    setStage({ name: 'summary' });
    setStatus(
      renewed
        ? 'Your new recovery codes replace the old ones. Your authenticator app is unchanged.'
        : 'Your new authenticator app is set up, and your new recovery codes replace the old ones. Your passkeys were removed: add them again if you want to use them.',
    );
    void queryClient.invalidateQueries({ queryKey: accountQueryKeys.account });
  };

  return (
    <>
      <StatusMessage message={status} testId="mfa-status" />
      <Box ref={stageRef} tabIndex={-1} sx={{ outline: 'none' }} data-testid="mfa-stage">
        {stage.name === 'setup' ? (
          <>
            <setupForm.Part
              enrolment={stage.enrolment}
              idPrefix="mfa-reset"
              headingLevel="h3"
              confirm={async (code) => (await withReauth(() => confirmMfaReset(code))).recoveryCodes}
              onConfirmed={(codes) => setStage({ name: 'codes', codes })}
            />
            <Button sx={{ mt: 1 }} onClick={() => setStage({ name: 'summary' })}>
              Cancel
            </Button>
          </>
        ) : stage.name === 'codes' ? (
          <RecoveryCodes codes={stage.codes} onDone={() => finish(stage.renewed)} headingLevel="h3" />
        ) : (
          <SectionQuery query={account} loadingLabel="Loading your authenticator details" lines={2}>
            {(data) => (
              <>
                <Typography>
                  {data.mfa.authenticatorEnrolledAt
                    ? `Authenticator app set up on ${formatDate(data.mfa.authenticatorEnrolledAt)}.`
                    : 'No authenticator app is set up yet.'}
                </Typography>
                <Typography>Recovery codes left: {data.mfa.recoveryCodesLeft}</Typography>
                {recoveryCodesDue(data.mfa, unsaved) && (
                  <Alert severity="warning" sx={{ mt: 2 }} data-testid="recovery-codes-warning">
                    {recoveryCodesDueText(data.mfa.recoveryCodesLeft, unsaved)}
                  </Alert>
                )}
                <Box sx={{ mt: 2, display: 'flex', alignItems: 'center', gap: 2 }}>
                  <Button variant="outlined" onClick={() => act(renew, start)} disabled={renew.isPending}>
                    Make new recovery codes
                  </Button>
                  {renew.isPending && <CircularProgress size={24} aria-label="Making your new recovery codes" />}
                </Box>
                <ErrorMessage message={renewErrorText} sx={{ mt: 2 }} />
                <Typography sx={{ mt: 1 }}>
                  Lost your phone or got a new one? Set up a new authenticator app. Your old app, your old recovery
                  codes and your passkeys stop working, you are logged out everywhere else, and links we emailed you
                  before no longer work.
                </Typography>
                <Box sx={{ mt: 2, display: 'flex', alignItems: 'center', gap: 2 }}>
                  <Button
                    variant="outlined"
                    onClick={() => {
                      void setupForm.load();
                      act(start, renew);
                    }}
                    disabled={start.isPending}
                  >
                    Set up a new authenticator app
                  </Button>
                  {start.isPending && (
                    <CircularProgress size={24} aria-label="Preparing your new authenticator setup" />
                  )}
                </Box>
                <ErrorMessage message={startErrorText} sx={{ mt: 2 }} />
              </>
            )}
          </SectionQuery>
        )}
      </Box>
    </>
  );
}
