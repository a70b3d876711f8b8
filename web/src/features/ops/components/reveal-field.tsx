import { Alert, Box, Button } from '@mui/material';
import { useState } from 'react';
import { useApiErrorText } from '../../../lib/use-api-error-text';
import { revealField } from '../api/ops-api';

/**
 * A sensitive field (the full email or phone) masked until the operator asks for it: "Show" reads it from the server,
 * which audits the view (docs/requirements/help-desk.md#actions). "Hide" masks it again; it is read afresh next time.
 */
export function RevealField({
  userId,
  field,
  label,
  masked,
}: {
  userId: string;
  field: 'email' | 'phone';
  label: string;
  masked: string;
}) {
  const [value, setValue] = useState<string | null>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const errorText = useApiErrorText(error);
  const shown = value !== undefined;
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Box component="span" aria-live="polite" sx={{ overflowWrap: 'anywhere' }} data-testid={`ops-${field}`}>
          {shown ? (value ?? 'None') : masked}
        </Box>
        <Button
          size="small"
          variant="outlined"
          disabled={busy}
          aria-label={`${shown ? 'Hide' : 'Show'} the full ${label}`}
          onClick={() => {
            if (shown) return setValue(undefined);
            setBusy(true);
            setError(undefined);
            revealField(userId, field)
              .then((answer) => setValue(answer.value))
              .catch(setError)
              .finally(() => setBusy(false));
          }}
        >
          {shown ? 'Hide' : 'Show'}
        </Button>
      </Box>
      {errorText && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorText}
        </Alert>
      )}
    </Box>
  );
}
