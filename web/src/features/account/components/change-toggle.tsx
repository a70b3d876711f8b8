import { Button } from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A My account section's form, closed until its "Change" action is chosen (docs/requirements/session.md#my-account):
 * Cancel or a save closes it and puts focus back on "Change". Opening it, the form (built only then, see
 * `useFocusOnOpen`) moves focus to its first field.
 */
export function useChangeToggle(id: string) {
  const [open, setOpen] = useState(false);
  const focusChange = useRef(false);
  useEffect(() => {
    if (!focusChange.current) return;
    document.getElementById(`${id}-change`)?.focus();
    focusChange.current = false;
  });
  const openForm = useCallback(() => setOpen(true), []);
  const closeForm = useCallback(() => {
    focusChange.current = true;
    setOpen(false);
  }, []);
  return { open, openForm, closeForm };
}

/**
 * Focus on the form's first field once the form is there: the form's code loads when it is first opened
 * (docs/decisions/0060), so the section cannot focus it when "Change" is chosen.
 */
export function useFocusOnOpen(firstFieldId: string) {
  useEffect(() => document.getElementById(firstFieldId)?.focus(), [firstFieldId]);
}

/**
 * "Change" (its accessible name says what: "Change email address"), shown while the form is closed. `preload` starts
 * loading the form's code when the pointer or the focus comes to the button, before it is chosen.
 */
export function ChangeButton({
  id,
  what,
  onClick,
  preload,
}: {
  id: string;
  what: string;
  onClick: () => void;
  preload?: () => unknown;
}) {
  return (
    <Button
      id={`${id}-change`}
      variant="outlined"
      onClick={onClick}
      onPointerEnter={preload}
      onFocus={preload}
      aria-label={`Change ${what}`}
      sx={{ mt: 1 }}
    >
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
