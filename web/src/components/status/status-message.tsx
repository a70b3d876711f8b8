import { Alert, type SxProps, type Theme } from '@mui/material';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A ref callback that scrolls a message into view (to the nearest edge, so nothing moves when it is already seen) as
 * it appears: a result or refusal is never drawn off-screen above the control that was used (issue 38 item 4). Keep
 * it on an element keyed by its message, so each new message is scrolled to.
 */
export const scrollIntoViewWhenShown = (element: HTMLElement | null) => element?.scrollIntoView?.({ block: 'nearest' });

/**
 * A polite live region for a success message (e.g. "Password changed"). The region is always in the page, so
 * screen readers announce the text when it appears; empty, it takes no space. The message is scrolled into view.
 * With `takeFocus` the region also takes the focus when a message appears, for a result whose control is gone (a
 * console action's dialog has closed, and the button that opened it may have gone with the change); it does so after
 * the dialog has given the focus back, so the keyboard goes on from the result.
 */
export function StatusMessage({
  message,
  testId,
  sx = { my: 2 },
  takeFocus = false,
}: {
  message?: ReactNode;
  testId?: string;
  sx?: SxProps<Theme>;
  takeFocus?: boolean;
}) {
  const region = useRef<HTMLDivElement>(null);
  const key = typeof message === 'string' ? message : undefined;
  const shown = Boolean(message);
  // An effect, not the alert's ref: a closing dialog restores the focus in its own effect, which this one follows.
  useEffect(() => {
    if (takeFocus && shown) region.current?.focus({ preventScroll: true });
  }, [takeFocus, shown, key]);
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid={testId}
      ref={region}
      tabIndex={takeFocus ? -1 : undefined}
      style={takeFocus ? { outline: 'none' } : undefined}
    >
      {message ? (
        <Alert key={key} severity="success" role="presentation" ref={scrollIntoViewWhenShown} sx={sx}>
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
