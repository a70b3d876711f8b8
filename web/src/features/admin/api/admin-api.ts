// TEMP: local shapes until s3-admin's contracts land; replaced by @portal/contracts' admin schemas.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export type AdminRole = 'administrator' | 'user';

export interface AdminAccessRequest {
  requestId: string;
  name: string;
  username: string;
  email: string;
  locationId: string;
  legalName: string;
  npi: string;
  createdAt: string;
}

export interface AdminPersonLocation {
  locationId: string;
  legalName: string;
  npi: string;
  role: AdminRole;
  certifiedUntil: string | null;
  status: string;
}

export interface AdminPerson {
  userId: string;
  name: string;
  username: string;
  email: string;
  status: string;
  lastLoginAt: string | null;
  mfaEnrolled: boolean;
  locations: AdminPersonLocation[];
}

export const adminPaths = {
  requests: '/api/admin/access-requests',
  approve: (id: string) => `/api/admin/access-requests/${encodeURIComponent(id)}/approve`,
  deny: (id: string) => `/api/admin/access-requests/${encodeURIComponent(id)}/deny`,
  people: '/api/admin/people',
  action: (userId: string, kind: string) => `/api/admin/people/${encodeURIComponent(userId)}/${kind}`,
};

// Personal data of other people: never kept once the page is left.
const personal = { gcTime: 0, refetchOnWindowFocus: false } as const;

export const adminQueryKeys = {
  all: ['admin'] as const,
  requests: ['admin', 'requests'] as const,
  people: (q: string) => ['admin', 'people', q] as const,
};

export const requestsQueryOptions = () =>
  queryOptions({
    queryKey: adminQueryKeys.requests,
    queryFn: ({ signal }) => apiRequest(adminPaths.requests, { signal }) as Promise<{ requests: AdminAccessRequest[] }>,
    ...personal,
  });

export const usePendingRequests = () => useQuery(requestsQueryOptions());

export function usePeopleSearch(q: string | undefined) {
  return useQuery({
    queryKey: adminQueryKeys.people(q ?? ''),
    queryFn: ({ signal }) =>
      apiRequest(`${adminPaths.people}?q=${encodeURIComponent(q ?? '')}`, { signal }) as Promise<{
        people: AdminPerson[];
        total: number;
      }>,
    enabled: q !== undefined,
    ...personal,
  });
}

export const approveRequest = (requestId: string, role: AdminRole) =>
  apiRequest(adminPaths.approve(requestId), {
    method: 'POST',
    body: { role },
  });

export const denyRequest = (requestId: string, reason?: string) =>
  apiRequest(adminPaths.deny(requestId), {
    method: 'POST',
    body: reason ? { reason } : {},
  });

/** The actions on a person: on one of their locations, or on the account. */
export type PersonAction =
  | { kind: 'remove'; locationId: string }
  | { kind: 'make-admin'; locationId: string }
  | { kind: 'revoke-admin'; locationId: string }
  | { kind: 'disable' }
  | { kind: 'enable' }
  | { kind: 'unlock' }
  | { kind: 'reset-mfa' };

export const runPersonAction = (userId: string, action: PersonAction) =>
  apiRequest(adminPaths.action(userId, action.kind), {
    method: 'POST',
    body: 'locationId' in action ? { locationId: action.locationId } : {},
  });
