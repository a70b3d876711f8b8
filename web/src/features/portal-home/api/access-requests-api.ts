import {
  ACCESS_REQUEST_ROUTES,
  AccessRequestListResponse,
  AccessRequestResponse,
  type CreateAccessRequest,
} from '@portal/contracts/access-requests';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const ACCESS_REQUESTS_QUERY_KEY = ['portal-home', 'access-requests'] as const;

/** While a request waits, how often the page asks again whether it was decided. */
export const PENDING_REFRESH_MS = 15_000;

/**
 * The user's own access requests, newest first (`GET /api/access-requests`). Personal: not kept once left. While one
 * is pending they are asked for again every PENDING_REFRESH_MS and when the tab comes back into view, so a decision
 * shows without a reload (issue 38 item 14).
 */
export function useOwnAccessRequests() {
  return useQuery({
    queryKey: ACCESS_REQUESTS_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiRequest(ACCESS_REQUEST_ROUTES.mine, { schema: AccessRequestListResponse.shape.data, signal }).then(
        (d) => d.requests,
      ),
    gcTime: 0,
    refetchInterval: (query) =>
      query.state.data?.some((request) => request.status === 'pending') ? PENDING_REFRESH_MS : false,
    refetchOnWindowFocus: (query) => Boolean(query.state.data?.some((request) => request.status === 'pending')),
  });
}

export const requestAccess = (body: CreateAccessRequest) =>
  apiRequest(ACCESS_REQUEST_ROUTES.mine, { method: 'POST', body, schema: AccessRequestResponse.shape.data });

export const withdrawAccessRequest = (id: string) =>
  apiRequest(ACCESS_REQUEST_ROUTES.withdraw.replace(':id', encodeURIComponent(id)), {
    method: 'POST',
    body: {},
    schema: AccessRequestResponse.shape.data,
  });
