import { ACCOUNT_ROUTES, AccountResponse, DDE_REQUESTS_PATH, DdeRequestListResponse } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

// Personal data: never kept in the cache once the page is left (as on My account).
const personal = { gcTime: 0, refetchOnWindowFocus: false } as const;

export const PORTAL_ACCOUNT_QUERY_KEY = ['portal-home', 'account'] as const;

/** The user's name and provider locations with the role at each (`GET /api/account`). */
export function usePortalAccount() {
  return useQuery({
    queryKey: PORTAL_ACCOUNT_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest(ACCOUNT_ROUTES.account, { schema: AccountResponse.shape.data, signal }),
    ...personal,
  });
}

/** The user's own DDE access requests, newest first (`GET /api/dde-access/requests`). */
export function useOwnDdeRequests() {
  return useQuery({
    queryKey: ['portal-home', 'dde-requests'],
    queryFn: ({ signal }) =>
      apiRequest(DDE_REQUESTS_PATH, { schema: DdeRequestListResponse.shape.data, signal }).then((d) => d.requests),
    ...personal,
  });
}
