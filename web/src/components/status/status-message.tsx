import { Alert } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A polite live region for a success message (e.g. "Password changed"). The region is always in the page, so
 * screen readers announce the text when it appears; empty, it takes no space.
 */
export function StatusMessage({ message, testId }: { message?: ReactNode; testId?: string }) {
  return (
    <div role="status" aria-live="polite" data-testid={testId}>
      {message ? (
        <Alert severity="success" role="presentation" sx={{ my: 2 }}>
          {message}
        </Alert>
      ) : null}
    </div>
  );
}
