import { Alert, Box, Button, Typography } from '@mui/material';
import type { LoginCompletion } from '@portal/contracts';
import { useState } from 'react';
import { getPasskeyAssertion, passkeyCeremonyErrorText, passkeysSupported } from '../../../lib/passkey-ceremony';
import { useApiErrorText } from '../../../lib/use-api-error-text';
import { getPasskeyLoginOptions, submitPasskeyAssertion } from '../api/auth-api';

/**
 * "Use a passkey instead" on the second-factor step (docs/requirements/session.md#mfa): the browser's WebAuthn
 * ceremony with one of the user's passkeys finishes the login like a code. Not offered where the browser has no
 * WebAuthn.
 */
export function PasskeyLogin({ onDone }: { onDone: (completion: LoginCompletion) => void }) {
  const [busy, setBusy] = useState(false);
  const [ceremonyError, setCeremonyError] = useState<string>();
  const [apiError, setApiError] = useState<unknown>();
  const apiErrorText = useApiErrorText(apiError);
  const errorText = ceremonyError ?? apiErrorText;
  if (!passkeysSupported()) return null;

  const run = async () => {
    setBusy(true);
    setCeremonyError(undefined);
    setApiError(undefined);
    try {
      const options = await getPasskeyLoginOptions();
      onDone(await submitPasskeyAssertion({ credential: await getPasskeyAssertion(options) }));
    } catch (err) {
      const text = passkeyCeremonyErrorText(err);
      if (text) setCeremonyError(`${text} Try again, or enter a code instead.`);
      else setApiError(err);
      setBusy(false);
    }
  };

  return (
    <Box component="section" aria-labelledby="passkey-login-title" sx={{ mt: 4 }}>
      <Typography component="h2" variant="h6" id="passkey-login-title">
        Or use a passkey
      </Typography>
      <Typography>If you added a passkey on My account, your device can confirm it&apos;s you instead.</Typography>
      <div role="alert" data-testid="passkey-login-error">
        {errorText && (
          <Alert severity="error" sx={{ my: 1 }}>
            {errorText}
          </Alert>
        )}
      </div>
      <Button variant="outlined" onClick={() => void run()} disabled={busy} sx={{ mt: 1 }}>
        Use a passkey instead
      </Button>
    </Box>
  );
}
