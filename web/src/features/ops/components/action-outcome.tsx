import { Alert } from '@mui/material';
import { useCallback } from 'react';

/**
 * Where an action's result is announced, next to the controls that started it: a polite live region, always in the
 * page. The message takes focus when it appears (the dialog has closed, and the button that opened it may be gone).
 */
export function ActionOutcome({ text, testId }: { text?: string; testId: string }) {
  const focus = useCallback((element: HTMLElement | null) => {
    element?.focus({ preventScroll: true });
    element?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div role="status" aria-live="polite" data-testid={testId}>
      {text ? (
        <Alert key={text} severity="success" role="presentation" ref={focus} tabIndex={-1} sx={{ mt: 2 }}>
          {text}
        </Alert>
      ) : null}
    </div>
  );
}
