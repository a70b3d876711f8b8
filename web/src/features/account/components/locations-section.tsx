import { Box, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { Account } from '@portal/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { PageSection, SectionError, SectionSkeleton } from '../../../components/layouts/page-section';
import { ScrollTable } from '../../../components/tables/scroll-table';

const roleText = { administrator: 'Administrator', user: 'User' } as const;

/** The provider locations the user belongs to, with the role at each (the TIN masked by the server). */
export function LocationsSection({ account }: { account: UseQueryResult<Account> }) {
  return (
    <PageSection id="locations" title="Provider locations and roles">
      {account.isPending ? (
        <SectionSkeleton label="Loading your provider locations" />
      ) : account.isError ? (
        <SectionError error={account.error} onRetry={() => void account.refetch()} />
      ) : account.data.locations.length === 0 ? (
        <Typography>No provider locations are linked to your account yet.</Typography>
      ) : (
        <ScrollTable label="Your provider locations">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                Legal name
              </TableCell>
              <TableCell component="th" scope="col">
                Jurisdiction
              </TableCell>
              <TableCell component="th" scope="col">
                TIN
              </TableCell>
              <TableCell component="th" scope="col">
                Role
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {account.data.locations.map((location, index) => (
              <TableRow key={`${index}:${location.legalName}`}>
                <TableCell component="th" scope="row" data-label="Legal name">
                  {location.legalName}
                </TableCell>
                <TableCell data-label="Jurisdiction">
                  {location.jurisdiction} · Part {location.lineOfBusiness}
                </TableCell>
                <TableCell data-label="TIN" sx={{ whiteSpace: 'nowrap' }}>
                  <Box component="span" sx={{ fontFamily: 'monospace' }}>
                    {location.tinMasked}
                  </Box>
                </TableCell>
                <TableCell data-label="Role">{roleText[location.role]}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </ScrollTable>
      )}
    </PageSection>
  );
}
