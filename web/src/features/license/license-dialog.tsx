import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useLicense } from './api/get-license';
import { ContentMarkdown } from '../../components/content-markdown/content-markdown';
import { focusPageHeading } from '../../lib/focus-page-heading';
import { useRegion } from '../../lib/region/region-context';

/** docs/requirements/api.md#error-catalogue: shown when the license cannot be fetched. */
export const LICENSE_ERROR_TEXT = 'Unable to retrieve About Us information.';

/** docs/requirements/public-site.md#license-dialog: the AMA CPT license from the CMS; Accept remembers it, Do Not Accept goes home and clears it. */
export function LicenseDialog({ open }: { open: boolean }) {
  const license = useLicense(open);
  const { acceptLicense, clearLicense } = useRegion();
  const navigate = useNavigate();
  const text = license.data?.attributes.LicenseText;

  return (
    <Dialog
      open={open}
      aria-labelledby="license-dialog-title"
      aria-describedby="license-dialog-content"
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id="license-dialog-title">License agreement</DialogTitle>
      <DialogContent
        id="license-dialog-content"
        dividers
        tabIndex={0}
        sx={{ maxHeight: '500px', overflowY: 'auto' }}
        data-testid="license-content"
      >
        {license.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }} aria-busy="true">
            <CircularProgress aria-label="Loading the license" />
          </Box>
        )}
        {license.isError && <Alert severity="error">{LICENSE_ERROR_TEXT}</Alert>}
        {text && <ContentMarkdown>{text}</ContentMarkdown>}
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            clearLicense();
            navigate(paths.home.href());
          }}
        >
          Do Not Accept
        </Button>
        <Button
          variant="contained"
          onClick={() => {
            acceptLicense();
            // The dialog goes with the acceptance and would leave the focus on the page's body: the page's heading
            // takes it, once the dialog has given its focus back.
            requestAnimationFrame(() => focusPageHeading());
          }}
          disabled={!text}
        >
          Accept
        </Button>
      </DialogActions>
    </Dialog>
  );
}
