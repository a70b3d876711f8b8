import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { PICKER_TITLE, JurisdictionChooser } from './jurisdiction-chooser';
import { useRegion } from '../../lib/region/region-context';

/** Jurisdiction picker (docs/requirements/public-site.md#jurisdiction-picker). It can be dismissed only when a jurisdiction is already chosen. */
export function JurisdictionPickerDialog({ open }: { open: boolean }) {
  const { jurisdiction, chooseJurisdiction, closePicker } = useRegion();
  const canDismiss = jurisdiction !== '';
  return (
    <Dialog
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
    </Dialog>
  );
}
