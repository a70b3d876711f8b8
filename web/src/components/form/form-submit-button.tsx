import { Button, CircularProgress, type ButtonProps } from '@mui/material';

/**
 * A form's submit button: while the request runs it is disabled, shows a spinner and says so (`aria-busy`), so a
 * second click cannot send the form twice.
 */
export function FormSubmitButton({ submitting, children, ...props }: ButtonProps & { submitting: boolean }) {
  return (
    <Button
      type="submit"
      variant="contained"
      {...props}
      disabled={submitting || props.disabled}
      aria-busy={submitting || undefined}
      startIcon={submitting ? <CircularProgress size={16} color="inherit" aria-hidden /> : props.startIcon}
      sx={{ mt: 2, ...props.sx }}
    >
      {children}
    </Button>
  );
}
