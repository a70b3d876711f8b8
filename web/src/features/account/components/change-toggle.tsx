import { Button } from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A My account section's form, closed until its "Change" action is chosen (docs/requirements/session.md#my-account):
 * opening moves focus to the form's first field, Cancel or a save closes it and puts focus back on "Change".
 */
export function useChangeToggle(id: string, firstFieldId: string) {
  const [open, setOpen] = useState(false);
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const openForm = useCallback(() => {
    focusNext.current = firstFieldId;
    setOpen(true);
  }, [firstFieldId]);
  const closeForm = useCallback(() => {
    focusNext.current = `${id}-change`;
    setOpen(false);
  }, [id]);
  return { open, openForm, closeForm };
}

/** "Change" (its accessible name says what: "Change email address"), shown while the form is closed. */
export function ChangeButton({ id, what, onClick }: { id: string; what: string; onClick: () => void }) {
  return (
    <Button id={`${id}-change`} variant="outlined" onClick={onClick} aria-label={`Change ${what}`} sx={{ mt: 1 }}>
      Change
    </Button>
  );
}

/** The form's way out without saving. */
export function CancelButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="text" onClick={onClick} sx={{ mt: 1, ml: 1 }}>
      Cancel
    </Button>
  );
}
