import { Box, Button, Typography } from '@mui/material';
import { useLocation } from 'react-router';
import { useRegion } from '../../lib/region/region-context';

export const INLINE_CHOOSER_ID = 'jurisdiction-chooser';

/**
 * Shows the current jurisdiction and lets the user change it: on `/`, where no dialog may open, it moves to the
 * inline tiles; elsewhere it opens the picker (docs/requirements/public-site.md#home-page).
 */
export function JurisdictionHeaderControl() {
  const { option, openPicker } = useRegion();
  const { pathname } = useLocation();
  const change = () => {
    if (pathname === '/') {
      const chooser = document.getElementById(INLINE_CHOOSER_ID);
      chooser?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      chooser?.querySelector<HTMLElement>('button')?.focus({ preventScroll: true });
    } else {
      openPicker();
    }
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
      <Typography component="p" variant="body2" data-testid="current-jurisdiction">
        {option ? (
          <>
            Jurisdiction: <strong>{option.title}</strong>
          </>
        ) : (
          'No jurisdiction chosen'
        )}
      </Typography>
      <Button
        variant="contained"
        color="secondary"
        size="small"
        onClick={change}
        aria-label={option ? `Change jurisdiction (now ${option.title})` : 'Choose jurisdiction'}
      >
        {option ? 'Change' : 'Choose jurisdiction'}
      </Button>
    </Box>
  );
}
