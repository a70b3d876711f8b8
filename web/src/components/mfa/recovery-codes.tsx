import { Box, Button, Checkbox, FormControlLabel, Stack, Typography } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { forgetRecoveryCodesUnsaved, markRecoveryCodesUnsaved } from '../../lib/recovery-codes-unsaved';

/**
 * The 10 new recovery codes, shown once (docs/requirements/session.md#mfa), with Copy, Download and Print, and
 * "I saved my recovery codes" before Continue. Used after the first login's enrolment and after an MFA reset.
 */
export function RecoveryCodes({
  codes,
  onDone,
  headingLevel = 'h2',
}: {
  codes: string[];
  onDone: () => void;
  headingLevel?: 'h2' | 'h3';
}) {
  const titleId = useId();
  // Until "I saved my recovery codes" and Continue, the tab remembers that these codes may be lost (a refresh).
  useEffect(() => markRecoveryCodesUnsaved(), []);
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
    <section aria-labelledby={titleId}>
      <Typography component={headingLevel} variant="h5" id={titleId} gutterBottom>
        Save your recovery codes
      </Typography>
      <Typography>
        Each code logs you in once if you lose your authenticator app. They are shown only now: keep them somewhere
        safe.
      </Typography>
      <Box
        component="ol"
        data-testid="recovery-codes"
        sx={{ fontFamily: 'monospace', fontSize: '1.1rem', columns: { xs: 1, sm: 2 }, my: 2 }}
      >
        {codes.map((code) => (
          // A code never wraps in its middle (a phone's narrow column).
          <Box component="li" key={code} sx={{ whiteSpace: 'nowrap' }}>
            {code}
          </Box>
        ))}
      </Box>
      <Stack direction="row" spacing={2} sx={{ mb: 2, flexWrap: 'wrap', '@media print': { display: 'none' } }}>
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
        <Button
          variant="contained"
          disabled={!saved}
          onClick={() => {
            forgetRecoveryCodesUnsaved();
            onDone();
          }}
          sx={{ mt: 1 }}
        >
          Continue
        </Button>
      </Box>
    </section>
  );
}
