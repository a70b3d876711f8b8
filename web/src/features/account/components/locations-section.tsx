import { Box, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { SectionQuery } from '../../../components/layouts/section-query';
import { ScrollTable } from '../../../components/tables/scroll-table';
import { locationEndedText } from '../../../lib/location-ended';

const roleText = { administrator: 'Administrator', user: 'User' } as const;

/** The provider locations the user belongs to, with the role at each (the TIN masked by the server). */
export function LocationsSection({ account }: { account: UseQueryResult<Account> }) {
  return (
    <>
      <SectionQuery
        query={account}
        loadingLabel="Loading your provider locations"
        isEmpty={(data) => data.locations.length === 0}
        empty={<Typography>No provider locations are linked to your account yet.</Typography>}
      >
        {(data) => (
          <ScrollTable label="Your provider locations" columns={['Legal name', 'Jurisdiction', 'TIN', 'Role']}>
            <TableBody>
              {data.locations.map((location, index) => (
                <TableRow key={`${index}:${location.legalName}`}>
                  <TableCell component="th" scope="row" data-label="Legal name">
                    {location.legalName}
                    {location.endedOn && (
                      <Typography variant="body2" sx={{ fontWeight: 700 }}>
                        {locationEndedText(location.endedOn)}
                      </Typography>
                    )}
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
      </SectionQuery>
    </>
  );
}
