import { queryOptions, useQuery } from '@tanstack/react-query';
import { SystemUseNoticeEntrySchema } from '@portal/contracts';
import { contentRequest } from '../../../lib/content-request';

/**
 * The CMS-managed system-use notice on the login page (CMS ARS AC-8). A module of its own: the server reads it
 * into `/login`'s first HTML (the route's `serverQueries`) without loading the login calls.
 */
export const getSystemUseNoticeQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'system-use-notice'],
    queryFn: ({ signal }) => contentRequest('system-use-notice', {}, SystemUseNoticeEntrySchema, signal),
    staleTime: 180_000,
  });

export function useSystemUseNotice() {
  return useQuery(getSystemUseNoticeQueryOptions());
}
