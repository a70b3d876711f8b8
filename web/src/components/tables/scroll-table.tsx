import { Box, Table, TableCell, TableContainer, TableHead, TableRow, type TableCellProps } from '@mui/material';
import type { ReactNode } from 'react';

/** What screen readers read but the layout hides (the column headings on a narrow screen, a hidden column name). */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** A column of a `ScrollTable`: its name, as a string, or with how it is shown. */
export type ScrollTableColumn =
  | string
  | {
      /** The column's name: its heading, and the name screen readers give each of its cells. */
      label: string;
      /** Read by screen readers only (a column whose cells say what they are, e.g. buttons named per row). */
      hideLabel?: boolean;
      /** The heading's alignment (the column's cells set their own). */
      align?: TableCellProps['align'];
    };

/**
 * A table of the portal (My account, the administrator's console). On a narrow screen each row becomes a small card: its cells stack, each preceded by its
 * column's name (the cell's `data-label`), so nothing scrolls sideways. Wider, it is a plain table in a labelled,
 * focusable region that can scroll if it ever has to. `columns` are its column headings, in order; `children` its
 * body (`TableBody`).
 */
export function ScrollTable({
  label,
  columns,
  children,
}: {
  label: string;
  columns: readonly ScrollTableColumn[];
  children: ReactNode;
}) {
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
        <TableHead>
          <TableRow>
            {columns.map((column) => {
              const {
                label: name,
                hideLabel,
                align,
              }: Exclude<ScrollTableColumn, string> = typeof column === 'string' ? { label: column } : column;
              return (
                <TableCell key={name} component="th" scope="col" align={align}>
                  {hideLabel ? (
                    <Box component="span" sx={visuallyHidden}>
                      {name}
                    </Box>
                  ) : (
                    name
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        {children}
      </Table>
    </TableContainer>
  );
}
