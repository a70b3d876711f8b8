import { queryOptions, useQuery } from '@tanstack/react-query';
import { HomePageEntrySchema } from '@portal/contracts';
import { contentRequest } from '../../../lib/content-request';

export const getHomePageQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'home-page'],
    queryFn: ({ signal }) => contentRequest('home-page', { populate: '*' }, HomePageEntrySchema, signal),
    staleTime: 60_000,
  });

export function useHomePage() {
  return useQuery(getHomePageQueryOptions());
}
