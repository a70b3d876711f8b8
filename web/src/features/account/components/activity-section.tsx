import { Box, Button, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { FIRST_ACTIVITY_PAGE, getActivityQueryOptions } from '../api/account-api';
import { formatDateTime } from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { ScrollTable } from '../../../components/tables/scroll-table';

/** Recent account activity from the audit log, newest first, a page at a time. */
export function ActivitySection() {
  const [page, setPage] = useState(FIRST_ACTIVITY_PAGE);
  // Rendered in a pass that yields when the answer comes, as the page takes the account (a deferred value).
  const activity = useDeferredValue(useQuery({ ...getActivityQueryOptions(page), placeholderData: keepPreviousData }));

  return (
    <>
      <SectionQuery
        query={activity}
        loadingLabel="Loading your recent activity"
        lines={5}
        isEmpty={(data) => data.items.length === 0 && page === FIRST_ACTIVITY_PAGE}
        empty={<Typography>No account activity yet.</Typography>}
      >
        {(data) => (
          <>
            <ScrollTable label="Recent activity" columns={['When', 'Activity', 'Result', 'IP address']}>
              <TableBody aria-busy={activity.isPlaceholderData}>
                {data.items.map((item, index) => (
                  <TableRow key={`${page}:${index}:${item.at}`}>
                    <TableCell data-label="When" sx={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(item.at)}
                    </TableCell>
                    <TableCell data-label="Activity">{item.description}</TableCell>
                    <TableCell data-label="Result">{item.outcome === 'success' ? 'Succeeded' : 'Failed'}</TableCell>
                    <TableCell data-label="IP address">{item.ip ?? 'Unknown'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </ScrollTable>
            <Box
              component="nav"
              aria-label="Activity pages"
              sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 2, flexWrap: 'wrap' }}
            >
              <Button variant="outlined" disabled={page === FIRST_ACTIVITY_PAGE} onClick={() => setPage((p) => p - 1)}>
                Newer
              </Button>
              <Typography aria-live="polite" data-testid="activity-page">
                Page {page}
              </Typography>
              <Button
                variant="outlined"
                disabled={!data.hasMore || activity.isPlaceholderData}
                onClick={() => setPage((p) => p + 1)}
              >
                Older
              </Button>
            </Box>
          </>
        )}
      </SectionQuery>
    </>
  );
}
