import { Table, TableContainer } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a narrow screen rather than overflowing the page. The scrolling box is a
 * labelled, focusable region, so keyboard users can scroll it too.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <TableContainer role="region" aria-label={`${label} (table)`} tabIndex={0} sx={{ my: 1 }}>
      <Table size="small" aria-label={label}>
        {children}
      </Table>
    </TableContainer>
  );
}
