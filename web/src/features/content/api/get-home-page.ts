import { queryOptions, useQuery } from '@tanstack/react-query';
import { readContent } from '../../../lib/content-query';

export const getHomePageQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'home-page'],
    queryFn: ({ signal }) => readContent('home-page', { populate: '*' }, (s) => s.HomePageEntrySchema, signal),
    staleTime: 60_000,
  });

export function useHomePage() {
  return useQuery(getHomePageQueryOptions());
}
