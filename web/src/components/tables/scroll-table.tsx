import { Table, TableContainer } from '@mui/material';
import type { ReactNode } from 'react';

/** What screen readers skip but the layout hides (the column headings on a narrow screen). */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * A table of the portal (My account, the administrator's console). On a narrow screen each row becomes a small card: its cells stack, each preceded by its
 * column's name (the cell's `data-label`), so nothing scrolls sideways. Wider, it is a plain table in a labelled,
 * focusable region that can scroll if it ever has to.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <TableContainer role="region" aria-label={`${label} (table)`} tabIndex={0} sx={{ my: 1 }}>
      <Table
        size="small"
        aria-label={label}
        sx={{
          '@media (max-width: 599.95px)': {
            '& thead': visuallyHidden,
            '& tr': { display: 'block', borderBottom: 1, borderColor: 'divider', py: 1 },
            '& td, & th[scope="row"]': {
              display: 'flex',
              gap: 1,
              border: 0,
              px: 0,
              py: 0.25,
              overflowWrap: 'anywhere',
              '&[data-label]::before': {
                content: 'attr(data-label)',
                fontWeight: 700,
                flex: '0 0 7.5rem',
              },
            },
          },
        }}
      >
        {children}
      </Table>
    </TableContainer>
  );
}
