import { Alert, Box, Button, Paper, Skeleton, Typography } from '@mui/material';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useApiErrorText } from '../../lib/use-api-error-text';

/**
 * One part of a page with sections (My account, the administrator's console): a labelled region with its heading, so screen-reader users can jump between them. The
 * heading can take focus (`useFocusSectionHeadingAfterRender`) when the control the user was on disappears.
 */
export function PageSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={`${id}-title`}
      data-testid={`${id}-section`}
      sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}
    >
      <Typography component="h2" variant="h5" id={`${id}-title`} tabIndex={-1} gutterBottom sx={{ outline: 'none' }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * Focus to a section's heading after the next render, e.g. when a dialog closes whose opener (a removed row's
 * button, a button that no longer applies) is about to disappear. It runs after the closing dialog has handed
 * focus back to its opener, so it wins.
 */
export function useFocusSectionHeadingAfterRender(id: string): () => void {
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    document.getElementById(`${id}-title`)?.focus();
  });
  return useCallback(() => {
    pending.current = true;
  }, []);
}

/** Grey lines where the section's data will appear; marked busy until then. */
export function SectionSkeleton({ label, lines = 3 }: { label: string; lines?: number }) {
  return (
    <Box aria-busy="true" role="progressbar" aria-label={label}>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} variant="text" width={i === lines - 1 ? '60%' : '100%'} sx={{ fontSize: '1.25rem' }} />
      ))}
    </Box>
  );
}

/** A section whose data could not be loaded: the CMS text for the error code and a way to try again. */
export function SectionError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const text = useApiErrorText(error);
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {text ?? 'Loading…'}
    </Alert>
  );
}

// The sections' dates (lib/dates.ts): written out, no Intl.DateTimeFormat built at load.
export { formatDate, formatDateTime } from '../../lib/dates';
