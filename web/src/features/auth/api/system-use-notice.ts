import { queryOptions, useQuery } from '@tanstack/react-query';
import { readContent } from '../../../lib/content-query';

/**
 * The CMS-managed system-use notice on the login page (CMS ARS AC-8). A module of its own: the server reads it
 * into `/login`'s first HTML (the route's `serverQueries`) without loading the login calls.
 */
export const getSystemUseNoticeQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'system-use-notice'],
    queryFn: ({ signal }) => readContent('system-use-notice', {}, (s) => s.SystemUseNoticeEntrySchema, signal),
    staleTime: 180_000,
  });

export function useSystemUseNotice() {
  return useQuery(getSystemUseNoticeQueryOptions());
}
