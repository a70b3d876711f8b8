import { queryOptions, useQuery } from '@tanstack/react-query';
import { LicenseEntrySchema } from '@portal/contracts';
import { contentRequest } from '../../../lib/content-request';

/** docs/requirements/api.md#calls: license?populate=*, stale time 180000 ms, retry 3, no refetch on focus, kept 5 minutes. */
export const getLicenseQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'license'],
    queryFn: ({ signal }) => contentRequest('license', { populate: '*' }, LicenseEntrySchema, signal),
    staleTime: 180_000,
    retry: 3,
    refetchOnWindowFocus: false,
    gcTime: 5 * 60_000,
  });

export function useLicense(enabled = true) {
  return useQuery({ ...getLicenseQueryOptions(), enabled });
}
