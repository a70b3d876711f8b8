import { Chip } from '@mui/material';

/**
 * A state at a glance beside a page's heading: green when all is well, amber when something needs the desk. Dark text
 * on a light amber (MUI's own warning chip, white on orange, is 3.1:1, below the 4.5:1 text needs).
 */
export function StateChip({ label, ok }: { label: string; ok: boolean }) {
  return (
    <Chip
      label={label}
      color={ok ? 'success' : 'default'}
      sx={{ fontWeight: 700, ...(ok ? {} : { bgcolor: '#ffe0b2', color: 'text.primary' }) }}
    />
  );
}
