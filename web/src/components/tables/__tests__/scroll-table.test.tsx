import { TableBody, TableCell, TableRow } from '@mui/material';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ScrollTable } from '../scroll-table';

describe('ScrollTable', () => {
  it('names each column from `columns`, in order, with its alignment; a hidden name is read but not shown', () => {
    render(
      <ScrollTable
        label="Payments"
        columns={['Payee', { label: 'Amount', align: 'right' }, { label: 'Actions', hideLabel: true }]}
      >
        <TableBody>
          <TableRow>
            <TableCell component="th" scope="row" data-label="Payee">
              Prairie Valley Clinic
            </TableCell>
            <TableCell data-label="Amount" align="right">
              $120.00
            </TableCell>
            <TableCell>
              <button type="button">Pay Prairie Valley Clinic</button>
            </TableCell>
          </TableRow>
        </TableBody>
      </ScrollTable>,
    );

    expect(screen.getByRole('region', { name: 'Payments (table)' })).toHaveAttribute('tabindex', '0');
    const table = screen.getByRole('table', { name: 'Payments' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Payee', 'Amount', 'Actions']);
    for (const header of headers) expect(header).toHaveAttribute('scope', 'col');
    expect(within(table).getByRole('rowheader', { name: 'Prairie Valley Clinic' })).toBeInTheDocument();
    // The header row is the table's first row, inside its `thead`, and the only one with column headers.
    expect(headers[0]!.closest('thead')).toBe(table.querySelector('thead'));
    expect(headers[1]).toHaveClass('MuiTableCell-alignRight');
    expect(headers[0]).not.toHaveClass('MuiTableCell-alignRight');
    // Shown: the name is the cell's own text. Hidden: it is inside a clipped 1 px box.
    expect(headers[0]!.firstElementChild).toBeNull();
    const hidden = within(headers[2]!).getByText('Actions');
    expect(hidden).not.toBe(headers[2]);
    expect(getComputedStyle(hidden)).toMatchObject({ position: 'absolute', width: '1px', height: '1px' });
  });
});
