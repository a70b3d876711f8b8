import { Alert } from '@mui/material';
import { useEffect, useRef } from 'react';

/**
 * Where an action's result is announced, next to the controls that started it: a polite live region, always in the
 * page. The region takes the focus when a result appears (the dialog has closed, and the button that opened it may be
 * gone), so the keyboard goes on from there.
 */
export function ActionOutcome({ text, testId }: { text?: string; testId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!text) return;
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [text]);
  return (
    <div role="status" aria-live="polite" data-testid={testId} ref={ref} tabIndex={-1} style={{ outline: 'none' }}>
      {text ? (
        <Alert severity="success" role="presentation" sx={{ mt: 2 }}>
          {text}
        </Alert>
      ) : null}
    </div>
  );
}
