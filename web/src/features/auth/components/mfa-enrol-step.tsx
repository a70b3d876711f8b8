import { Alert, CircularProgress } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { LoginCompletion } from '@portal/contracts';
import { useState } from 'react';
import { AuthenticatorSetupForm } from '../../../components/mfa/authenticator-setup-form';
import { RecoveryCodes } from '../../../components/mfa/recovery-codes';
import { useApiErrorText } from '../../../lib/use-api-error-text';
import { confirmMfaEnrolment, startMfaEnrolment } from '../api/auth-api';

/**
 * First login: set up the authenticator (QR code + manual key), confirm it with a code, then show the 10 recovery
 * codes once (docs/requirements/session.md#mfa). The confirmation completes the login (or leads on to the change of an
 * expired password); `onDone` follows "I saved them".
 */
export function MfaEnrolStep({
  onConfirmed,
  onDone,
}: {
  onConfirmed: (completion: LoginCompletion) => void;
  onDone: () => void;
}) {
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  // Starting creates a new secret: once per visit to this step, never refetched behind the user's back.
  const enrolment = useQuery({
    queryKey: ['auth', 'mfa-enrolment'],
    queryFn: startMfaEnrolment,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const startErrorText = useApiErrorText(enrolment.error ?? undefined);

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={onDone} />;
  if (enrolment.isPending) return <CircularProgress aria-label="Preparing your authenticator setup" />;
  if (enrolment.isError) return <Alert severity="error">{startErrorText}</Alert>;
  return (
    <AuthenticatorSetupForm
      enrolment={enrolment.data}
      idPrefix="enrol"
      headingLevel="h3"
      confirm={async (code) => {
        const { recoveryCodes: codes, ...completion } = await confirmMfaEnrolment(code);
        onConfirmed(completion);
        return codes;
      }}
      onConfirmed={setRecoveryCodes}
    />
  );
}
