import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Checkbox, CircularProgress, FormControlLabel, Stack, Typography } from '@mui/material';
import { MfaEnrollRequest, type MfaEnrollStart } from '@portal/contracts';
import { z } from 'zod/mini';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { FormTextField } from '../../../components/form/form-text-field';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { confirmMfaEnrolment, startMfaEnrolment } from '../api/auth-api';
import { useApiErrorText } from '../../../lib/use-api-error-text';

const CODE_MESSAGE = 'Enter the 6-digit code your authenticator app shows.';
const fieldIds = { code: 'enrol-code' };
/** The confirming call's body: MfaEnrollRequest with its code required. */
const EnrolCode = z.required(MfaEnrollRequest);

/**
 * First login: set up the authenticator (QR code + manual key), confirm it with a code, then show the 10 recovery
 * codes once (docs/requirements/session.md#mfa). The login completes with the confirmation; `onDone` follows "I saved them".
 */
export function MfaEnrolStep({ onConfirmed, onDone }: { onConfirmed: () => void; onDone: () => void }) {
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
    <SetUpAuthenticator
      enrolment={enrolment.data}
      onConfirmed={(codes) => {
        setRecoveryCodes(codes);
        onConfirmed();
      }}
    />
  );
}

function SetUpAuthenticator({
  enrolment,
  onConfirmed,
}: {
  enrolment: MfaEnrollStart;
  onConfirmed: (codes: string[]) => void;
}) {
  const form = useForm<{ code: string }>({
    resolver: zodResolver(EnrolCode, { error: () => CODE_MESSAGE }),
    defaultValues: { code: '' },
    shouldFocusError: false,
  });
  const { errors, submitCount, isSubmitting } = form.formState;

  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
    submit: async ({ code }) => onConfirmed((await confirmMfaEnrolment(code)).recoveryCodes),
    clearOnError: 'code',
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Set up your authenticator app">
      <FormErrorSummary errors={summary} submitCount={submitCount} />
      <Typography component="h2" variant="h5" gutterBottom>
        Set up your authenticator app
      </Typography>
      <Typography>
        Every login needs a code from an authenticator app. Scan this QR code with the app, or type the key below.
      </Typography>
      <Box
        component="img"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt="QR code for your authenticator app"
        sx={{ width: 200, height: 200, my: 2, display: 'block', bgcolor: 'common.white' }}
      />
      <Typography>
        Key:{' '}
        <Box component="code" data-testid="mfa-manual-key" sx={{ fontSize: '1.1rem', letterSpacing: 1 }}>
          {enrolment.secret}
        </Box>
      </Typography>
      <FormTextField
        id={fieldIds.code}
        label="6-digit code from the app"
        autoComplete="one-time-code"
        inputMode="numeric"
        registration={form.register('code')}
        error={errors.code}
        required
      />
      <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ mt: 2 }}>
        Confirm
      </Button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'recovery-codes.txt' });
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-labelledby="recovery-codes-title">
      <Typography component="h2" variant="h5" id="recovery-codes-title" gutterBottom>
        Save your recovery codes
      </Typography>
      <Typography>
        Each code logs you in once if you lose your authenticator app. They are shown only now: keep them somewhere
        safe.
      </Typography>
      <Box
        component="ol"
        data-testid="recovery-codes"
        sx={{ fontFamily: 'monospace', fontSize: '1.1rem', columns: 2, my: 2 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={2} sx={{ mb: 2, '@media print': { display: 'none' } }}>
        <Button
          variant="outlined"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="outlined" onClick={download}>
          Download
        </Button>
        <Button variant="outlined" onClick={() => window.print()}>
          Print
        </Button>
      </Stack>
      <FormControlLabel
        control={<Checkbox checked={saved} onChange={(event) => setSaved(event.target.checked)} />}
        label="I saved my recovery codes"
      />
      <Box>
        <Button variant="contained" disabled={!saved} onClick={onDone} sx={{ mt: 1 }}>
          Continue
        </Button>
      </Box>
    </section>
  );
}
