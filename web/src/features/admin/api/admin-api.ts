import type { LocationRole } from '@portal/contracts';
import { ADMIN_ROUTES, adminPath } from '@portal/contracts/paths';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { contractCall } from '../../../lib/contract-call';
import { useConsoleOpen } from '../recertification/recertification-api';

// The answers' schemas (zod), loaded when a call is made (lib/contract-call.ts).
const contracts = () => import('@portal/contracts/admin');

// Other people's personal data: never kept once the page is left (as on My account). An answer the server put in
// the page is as fresh as the page: the hydrated console does not ask for it again at once (the refetch at mount
// loaded every answer's zod schemas and parsed the lists while the page became interactive, issue 39).
const personal = { gcTime: 0, staleTime: 60_000, refetchOnWindowFocus: false } as const;

export const adminQueryKeys = {
  all: ['admin'] as const,
  requests: (page: number) => ['admin', 'requests', page] as const,
  people: (q: string, page: number) => ['admin', 'people', q, page] as const,
};

const withQuery = (path: string, params: Record<string, string | number | undefined>) => {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== '') query.set(name, `${value}`);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
};

/** `GET /api/admin/requests`: the pending requests of the caller's locations, oldest first, a page at a time. */
export const requestsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: adminQueryKeys.requests(page),
    queryFn: ({ signal }) =>
      contractCall(contracts, (c, request) =>
        request(withQuery(ADMIN_ROUTES.requests, { page }), { schema: c.AccessRequestListResponse.shape.data, signal }),
      ),
    placeholderData: keepPreviousData,
    ...personal,
  });

export const usePendingRequests = (page: number) =>
  useQuery({ ...requestsQueryOptions(page), enabled: useConsoleOpen() });

/** `GET /api/admin/people`: people of the caller's locations matching `q` (everyone without it), a page at a time. */
export const usePeopleSearch = (q: string, page: number) =>
  useQuery({
    queryKey: adminQueryKeys.people(q, page),
    queryFn: ({ signal }) =>
      contractCall(contracts, (c, request) =>
        request(withQuery(ADMIN_ROUTES.people, { q, page }), { schema: c.PeopleSearchResponse.shape.data, signal }),
      ),
    placeholderData: keepPreviousData,
    ...personal,
    enabled: useConsoleOpen(),
  });

export const approveRequest = (requestId: string, role: LocationRole) =>
  contractCall(contracts, (c, request) =>
    request(adminPath(ADMIN_ROUTES.approveRequest, { requestId }), {
      method: 'POST',
      body: { role },
      schema: c.AccessRequestDecisionResponse.shape.data,
    }),
  );

export const denyRequest = (requestId: string, reason?: string) =>
  contractCall(contracts, (c, request) =>
    request(adminPath(ADMIN_ROUTES.denyRequest, { requestId }), {
      method: 'POST',
      body: reason ? { reason } : {},
      schema: c.AccessRequestDecisionResponse.shape.data,
    }),
  );

/** The actions on a person: on one of their locations (remove, the administrator role), or on the account. */
export type PersonAction =
  | { kind: 'remove'; locationId: string }
  | { kind: 'make-admin'; locationId: string }
  | { kind: 'revoke-admin'; locationId: string }
  | { kind: 'disable' }
  | { kind: 'enable' }
  | { kind: 'unlock' }
  | { kind: 'reset-mfa' };

const accountActionPaths = {
  disable: ADMIN_ROUTES.disablePerson,
  enable: ADMIN_ROUTES.enablePerson,
  unlock: ADMIN_ROUTES.unlockPerson,
  'reset-mfa': ADMIN_ROUTES.resetPersonMfa,
} as const;

/** The request an action sends: its path and body (the role change's; the other actions take none). */
export function personActionRequest(userId: string, action: PersonAction): { path: string; body: unknown } {
  switch (action.kind) {
    case 'remove':
      return { path: adminPath(ADMIN_ROUTES.removePerson, { userId, locationId: action.locationId }), body: undefined };
    case 'make-admin':
    case 'revoke-admin':
      return {
        path: adminPath(ADMIN_ROUTES.setPersonRole, { userId, locationId: action.locationId }),
        body: { role: action.kind === 'make-admin' ? 'administrator' : 'user' },
      };
    default:
      return { path: adminPath(accountActionPaths[action.kind], { userId }), body: undefined };
  }
}

export const runPersonAction = (userId: string, action: PersonAction) => {
  const { path, body } = personActionRequest(userId, action);
  return contractCall(contracts, (c, request) =>
    request(path, { method: 'POST', body, schema: c.PersonActionResponse.shape.data }),
  );
};

/**
 * What the console's first screens show, read by the server with the request's session into the page it renders
 * (docs/decisions/0034-server-rendered-portal-pages.md): the sections are drawn with their data, as they stay once
 * hydrated (issue 39), under the keys their queries read. The console opens once the session answer says no
 * recertification is overdue (`useConsoleOpen`), so that answer is read too.
 */
export async function adminSessionQueries() {
  const [{ recertificationSessionQueries }, invitations] = await Promise.all([
    import('../recertification/recertification-api'),
    import('@portal/contracts/invitations'),
  ]);
  const { invitationsQueryKey } = await import('../invitations/invitations-api');
  return [
    ...(await recertificationSessionQueries()),
    { queryKey: invitationsQueryKey, path: invitations.ADMIN_INVITATIONS_PATH },
    { queryKey: adminQueryKeys.requests(1), path: withQuery(ADMIN_ROUTES.requests, { page: 1 }) },
    { queryKey: adminQueryKeys.people('', 1), path: withQuery(ADMIN_ROUTES.people, { q: '', page: 1 }) },
  ];
}
