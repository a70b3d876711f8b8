import { Button, Stack, Typography } from '@mui/material';

/**
 * Previous and next page of a list the server answers a page at a time ("Page 2 of 4"), under the list. Shown only
 * when there is more than one page.
 */
export function Pager({
  label,
  page,
  pageSize,
  total,
  hasMore,
  onPage,
}: {
  /** What the list is, for the navigation's name ("Access requests pages"). */
  label: string;
  page: number;
  pageSize: number;
  total: number;
  hasMore: boolean;
  onPage: (page: number) => void;
}) {
  if (page === 1 && !hasMore) return null;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Stack
      component="nav"
      aria-label={`${label} pages`}
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', mt: 2 }}
    >
      <Button variant="outlined" size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </Button>
      <Typography aria-live="polite">
        Page {page} of {pages}
      </Typography>
      <Button variant="outlined" size="small" disabled={!hasMore} onClick={() => onPage(page + 1)}>
        Next page
      </Button>
    </Stack>
  );
}
