import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { PICKER_TITLE, JurisdictionChooser } from './jurisdiction-chooser';
import { createPortal } from 'react-dom';
import { useRegion } from '../../lib/region/region-context';
import { useHydrated } from '../../lib/use-hydrated';

/**
 * Jurisdiction picker (docs/requirements/public-site.md#jurisdiction-picker). `mustChoose` (a content page without a
 * jurisdiction): it cannot be dismissed; otherwise (a jurisdiction chosen, or opened from a portal page's header) it
 * can.
 *
 * A first visitor meets it on a content page, as the page hydrates. MUI's own portal mounts the dialog from a
 * layout effect, a render React does at once, in one task (120–160 ms at a phone's speed); so the dialog is put into
 * `<body>` by `createPortal` here (MUI's portal off: the same place in the document, so the modal hides the page from
 * assistive technology as before), after hydration, in the transition `useHydrated` switches in: its render yields
 * to the browser (docs/decisions/0060). The server's markup has no dialog either way.
 */
export function JurisdictionPickerDialog({ open, mustChoose }: { open: boolean; mustChoose: boolean }) {
  const { jurisdiction, chooseJurisdiction, closePicker } = useRegion();
  const hydrated = useHydrated();
  const canDismiss = !mustChoose;
  if (!hydrated) return null;
  return createPortal(
    <Dialog
      disablePortal
      open={open}
      onClose={canDismiss ? closePicker : undefined}
      aria-labelledby="jurisdiction-picker-title"
      aria-describedby="jurisdiction-picker-body"
      maxWidth="sm"
      fullWidth
      scroll="body"
    >
      <DialogTitle id="jurisdiction-picker-title" sx={{ pr: canDismiss ? 6 : undefined }}>
        {PICKER_TITLE}
      </DialogTitle>
      {canDismiss && (
        <IconButton aria-label="Close" onClick={closePicker} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <span aria-hidden="true">×</span>
        </IconButton>
      )}
      <DialogContent>
        <JurisdictionChooser
          selected={jurisdiction}
          onChoose={chooseJurisdiction}
          heading={null}
          bodyId="jurisdiction-picker-body"
        />
      </DialogContent>
    </Dialog>,
    document.body,
  );
}
