import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, type FormEventHandler, type ReactNode } from 'react';

/**
 * "Are you sure?" before an action that cannot be undone: labelled by its title, described by its text. With
 * `onSubmit` the dialog's content is a form (inside the dialog's paper, which keeps its `dialog` role; the confirm
 * button submits it): `top` goes above the
 * text (a form's error summary), `fields` below it, and `initialFocus` names the element that takes the focus when it
 * has opened (docs/decisions/0073-form-and-action-primitives.md).
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy,
  confirmColor = 'error',
  onConfirm,
  onCancel,
  onSubmit,
  top,
  fields,
  initialFocus,
  wide,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  /** Red for what takes something away (the default); the theme's primary colour for what grants something. */
  confirmColor?: 'error' | 'primary';
  onConfirm?: () => void;
  onCancel: () => void;
  onSubmit?: FormEventHandler<HTMLFormElement>;
  top?: ReactNode;
  fields?: ReactNode;
  /** The id of the element focused once the dialog has opened (else the dialog itself). */
  initialFocus?: string;
  wide?: boolean;
}) {
  const id = useId();
  return (
    <Dialog
      open
      onClose={onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      maxWidth="sm"
      fullWidth={wide}
      slotProps={{
        transition: { onEntered: () => initialFocus && document.getElementById(initialFocus)?.focus() },
      }}
    >
      <Form onSubmit={onSubmit}>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        {/* A long email address or name wraps: overflowing sideways made the content a scroll region a keyboard
            cannot reach (axe scrollable-region-focusable at 390 px). */}
        <DialogContent sx={{ overflowWrap: 'anywhere' }}>
          {top}
          <DialogContentText id={`${id}-text`} component="div">
            {children}
          </DialogContentText>
          {fields}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>Cancel</Button>
          <Button
            variant="contained"
            color={confirmColor}
            type={onSubmit ? 'submit' : 'button'}
            onClick={onSubmit ? undefined : onConfirm}
            disabled={busy}
          >
            {confirmLabel}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** The dialog's content as a `noValidate` form when it has a submit (the schema's messages, not the browser's). */
function Form({ onSubmit, children }: { onSubmit?: FormEventHandler<HTMLFormElement>; children: ReactNode }) {
  return onSubmit ? (
    <form onSubmit={onSubmit} noValidate>
      {children}
    </form>
  ) : (
    children
  );
}
