import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTENT_STALE_MS, readContent } from '../../../lib/content-query';

export const getHomePageQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'home-page'],
    queryFn: ({ signal }) => readContent('home-page', { populate: '*' }, (s) => s.HomePageEntrySchema, signal),
    staleTime: CONTENT_STALE_MS,
  });

export function useHomePage() {
  return useQuery(getHomePageQueryOptions());
}
