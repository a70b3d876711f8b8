import {
  ACCESS_REQUEST_ROUTES,
  AccessRequestListResponse,
  AccessRequestResponse,
  type CreateAccessRequest,
} from '@portal/contracts/access-requests';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const ACCESS_REQUESTS_QUERY_KEY = ['portal-home', 'access-requests'] as const;

/** The user's own access requests, newest first (`GET /api/access-requests`). Personal: not kept once left. */
export function useOwnAccessRequests() {
  return useQuery({
    queryKey: ACCESS_REQUESTS_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiRequest(ACCESS_REQUEST_ROUTES.mine, { schema: AccessRequestListResponse.shape.data, signal }).then(
        (d) => d.requests,
      ),
    gcTime: 0,
    refetchOnWindowFocus: false,
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
