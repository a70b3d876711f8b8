import { Alert, type SxProps, type Theme } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A ref callback that scrolls a message into view (to the nearest edge, so nothing moves when it is already seen) as
 * it appears: a result or refusal is never drawn off-screen above the control that was used (issue 38 item 4). Keep
 * it on an element keyed by its message, so each new message is scrolled to.
 */
export const scrollIntoViewWhenShown = (element: HTMLElement | null) => element?.scrollIntoView?.({ block: 'nearest' });

/**
 * A polite live region for a success message (e.g. "Password changed"). The region is always in the page, so
 * screen readers announce the text when it appears; empty, it takes no space. The message is scrolled into view.
 */
export function StatusMessage({ message, testId }: { message?: ReactNode; testId?: string }) {
  return (
    <div role="status" aria-live="polite" data-testid={testId}>
      {message ? (
        <Alert
          key={typeof message === 'string' ? message : undefined}
          severity="success"
          role="presentation"
          ref={scrollIntoViewWhenShown}
          sx={{ my: 2 }}
        >
          {message}
        </Alert>
      ) : null}
    </div>
  );
}

/**
 * An action's refusal: an alert (announced at once), scrolled into view when it appears. Render it next to the
 * control that was used.
 */
export function ErrorMessage({ message, testId, sx }: { message?: string; testId?: string; sx?: SxProps<Theme> }) {
  return message ? (
    <Alert key={message} severity="error" role="alert" ref={scrollIntoViewWhenShown} sx={sx} data-testid={testId}>
      {message}
    </Alert>
  ) : null;
}
