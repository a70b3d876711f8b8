import { queryOptions, useQuery } from '@tanstack/react-query';
import { contractCall } from '../../../lib/contract-call';

/**
 * The portal home's reads. The server reads them with the request's session into the page it renders
 * (`portalHomeSessionQueries`, docs/decisions/0060), so the first HTML shows them as
 * they stay once hydrated (issue 39: no "Loading…" replaced by content of another height). Each call loads its
 * contracts when it runs (lib/contract-call.ts).
 */
const accountContracts = () => import('@portal/contracts/account');
const ddeContracts = () => import('@portal/contracts/dde-access');
const accessRequestContracts = () => import('@portal/contracts/access-requests');

export const portalHomeQueryKeys = {
  account: ['portal-home', 'account'] as const,
  ddeRequests: ['portal-home', 'dde-requests'] as const,
  accessRequests: ['portal-home', 'access-requests'] as const,
};

// Personal data: never kept in the cache once the page is left (as on My account). An answer the server put in the
// page is as fresh as the page: the hydrated page does not ask for it again at once.
const personal = { gcTime: 0, staleTime: 60_000, refetchOnWindowFocus: false } as const;

/** What the portal home's first screen shows, read by the server with the request's session (the route's handle). */
export async function portalHomeSessionQueries() {
  const [account, dde, accessRequests] = await Promise.all([
    accountContracts(),
    ddeContracts(),
    accessRequestContracts(),
  ]);
  return [
    { queryKey: portalHomeQueryKeys.account, path: account.ACCOUNT_ROUTES.account },
    { queryKey: portalHomeQueryKeys.ddeRequests, path: dde.DDE_REQUESTS_PATH },
    { queryKey: portalHomeQueryKeys.accessRequests, path: accessRequests.ACCESS_REQUEST_ROUTES.mine },
  ];
}

export const PORTAL_ACCOUNT_QUERY_KEY = portalHomeQueryKeys.account;

/** The user's name and provider locations with the role at each (`GET /api/account`). */
export function usePortalAccount() {
  return useQuery(
    queryOptions({
      queryKey: portalHomeQueryKeys.account,
      queryFn: ({ signal }) =>
        contractCall(accountContracts, (c, request) =>
          request(c.ACCOUNT_ROUTES.account, { schema: c.AccountResponse.shape.data, signal }),
        ),
      ...personal,
    }),
  );
}

/** The user's own DDE access requests, newest first (`GET /api/dde-access/requests`). */
export function useOwnDdeRequests() {
  return useQuery(
    queryOptions({
      queryKey: portalHomeQueryKeys.ddeRequests,
      queryFn: ({ signal }) =>
        contractCall(ddeContracts, (c, request) =>
          request(c.DDE_REQUESTS_PATH, { schema: c.DdeRequestListResponse.shape.data, signal }),
        ),
      select: (data) => data.requests,
      ...personal,
    }),
  );
}

/** While a request waits, how often the page asks again whether it was decided. */
export const PENDING_REFRESH_MS = 15_000;

/**
 * The user's own access requests, newest first (`GET /api/access-requests`). While one is pending they are asked for
 * again every PENDING_REFRESH_MS and when the tab comes back into view, so a decision shows without a reload (issue 38
 * item 14).
 */
export function useOwnAccessRequests() {
  return useQuery(
    queryOptions({
      queryKey: portalHomeQueryKeys.accessRequests,
      queryFn: ({ signal }) =>
        contractCall(accessRequestContracts, (c, request) =>
          request(c.ACCESS_REQUEST_ROUTES.mine, { schema: c.AccessRequestListResponse.shape.data, signal }),
        ),
      select: (data) => data.requests,
      ...personal,
      refetchInterval: (query) =>
        query.state.data?.requests.some((request) => request.status === 'pending') ? PENDING_REFRESH_MS : false,
      refetchOnWindowFocus: (query) =>
        Boolean(query.state.data?.requests.some((request) => request.status === 'pending')),
    }),
  );
}
