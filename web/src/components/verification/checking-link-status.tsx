import { Box, CircularProgress } from '@mui/material';

/**
 * The one status line of a page that opens an emailed link (verify email, confirm a new address) until the server
 * has answered, also while the token is read from the address: steady, so nothing flashes or shifts.
 */
export function CheckingLinkStatus() {
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      <CircularProgress size={24} aria-hidden="true" />
      Checking your link…
    </Box>
  );
}
