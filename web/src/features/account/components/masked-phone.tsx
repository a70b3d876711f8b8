import { Box } from '@mui/material';

/**
 * A phone number masked by the server (`***-***-0199`), kept on one line: a narrow screen would otherwise break it
 * at a hyphen. `nowrap` rather than non-breaking hyphens, so screen readers read the characters as they are.
 */
export function MaskedPhone({ phone }: { phone: string }) {
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      {phone}
    </Box>
  );
}
