import { Box } from '@mui/material';
import { useRegion } from '../../lib/region/region-context';
import { JurisdictionChooser } from './jurisdiction-chooser';
import { INLINE_CHOOSER_ID } from './jurisdiction-header-control';

/** The jurisdiction tiles shown inline on the home page, where no dialog may open; the header's Change button moves here. */
export function InlineJurisdictionChooser() {
  const { jurisdiction, chooseJurisdiction } = useRegion();
  return (
    <Box component="section" id={INLINE_CHOOSER_ID} aria-labelledby="inline-chooser-title" sx={{ scrollMarginTop: 16 }}>
      <Box sx={{ maxWidth: 640 }}>
        <JurisdictionChooser selected={jurisdiction} onChoose={chooseJurisdiction} titleId="inline-chooser-title" />
      </Box>
    </Box>
  );
}
