import { Box, Button, Link, Stack, Typography } from '@mui/material';
import { MfaEnrollRequest, type MfaEnrollStart } from '@portal/contracts';
import { useState } from 'react';
import { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../form/api-form';
import { FormField } from '../form/form-field';

const CODE_MESSAGE = 'Enter the 6-digit code your authenticator app shows.';
/** The confirming code: MfaEnrollRequest with its code required. */
const EnrolCode = z.required(MfaEnrollRequest);

/**
 * Set up an authenticator app (docs/requirements/session.md#mfa): the QR code and the manual key of a new secret,
 * confirmed with a code from the app. Used by the first login's enrolment and by My account's MFA reset;
 * `confirm` sends the code and answers the new recovery codes.
 */
export function AuthenticatorSetupForm({
  enrolment,
  confirm,
  onConfirmed,
  idPrefix,
  headingLevel = 'h2',
}: {
  enrolment: MfaEnrollStart;
  confirm: (code: string) => Promise<string[]>;
  onConfirmed: (recoveryCodes: string[]) => void;
  /** Keeps the code field's id unique on a page with other forms. */
  idPrefix: string;
  headingLevel?: 'h2' | 'h3';
}) {
  const fieldIds = { code: `${idPrefix}-code` };
  const form = useApiForm<{ code: string }>({
    schema: EnrolCode,
    schemaMessage: () => CODE_MESSAGE,
    defaultValues: { code: '' },
    fieldIds,
    submit: async ({ code }) => onConfirmed(await confirm(code)),
    clearOnError: 'code',
  });
  const [copy, setCopy] = useState<'copied' | 'failed'>();
  const copyKey = () => {
    // The key without its grouping spaces: what an app's "enter a key" field takes.
    const key = enrolment.secret.replace(/\s+/g, '');
    navigator.clipboard.writeText(key).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };

  return (
    <ApiForm form={form} label="Set up your authenticator app">
      <Typography component={headingLevel} variant="h5" gutterBottom>
        Set up your authenticator app
      </Typography>
      <Typography>
        Every login needs a code from an authenticator app. Scan this QR code with the app, or type the key below. On
        the phone that has the app, open it from the link or copy the key.
      </Typography>
      <Box
        component="img"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt="QR code for your authenticator app"
        sx={{ width: 200, height: 200, my: 2, display: 'block', bgcolor: 'common.white' }}
      />
      <Typography>
        Key:{' '}
        <Box
          component="code"
          data-testid="mfa-manual-key"
          sx={{ fontSize: '1.1rem', letterSpacing: 1, overflowWrap: 'anywhere' }}
        >
          {enrolment.secret}
        </Box>
      </Typography>
      <Stack direction="row" spacing={2} sx={{ mt: 1, mb: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Link href={enrolment.otpauthUrl}>Open in your authenticator app</Link>
        <Button variant="outlined" size="small" onClick={copyKey}>
          Copy the key
        </Button>
        {/* Announced where the button is (issue 38 item 4). */}
        <Typography role="status" variant="body2">
          {copy === 'copied' ? 'Key copied.' : copy === 'failed' ? 'The key could not be copied: type it.' : ''}
        </Typography>
      </Stack>
      <FormField
        id={fieldIds.code}
        name="code"
        label="6-digit code from the app"
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        required
      />
      <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 2 }}>
        Confirm
      </Button>
    </ApiForm>
  );
}
