import { AUTH_ROUTES } from '@portal/contracts/paths';
import { SessionStateCheck } from '@portal/contracts/response-checks';
import type { RecertificationDecision } from '@portal/contracts/recertification';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { contractCall } from '../../../lib/contract-call';

// The contracts' recertification module (its path and schemas, with zod), loaded when a call is made: every
// logged-in page reads the overdue flag here (app/require-login.tsx) and builds no schema for it (issue 39).
const contracts = () => import('@portal/contracts/recertification');

/** Under the console's `['admin']` key: a change anywhere in the console refreshes it too. */
export const recertificationQueryKeys = {
  all: ['admin'] as const,
  due: ['admin', 'recertifications'] as const,
  /** The session answer's `recertificationOverdue`, read by every logged-in page. */
  overdue: ['admin', 'recertification-overdue'] as const,
};

/**
 * What `/admin/recertify` shows first (and the console's recertification section), read by the server with the
 * request's session into the page it renders (docs/decisions/0034-server-rendered-portal-pages.md): the session
 * answer's overdue flag and the due links, under the keys their queries read.
 */
export async function recertificationSessionQueries() {
  const { RECERTIFICATIONS_PATH } = await contracts();
  return [
    { queryKey: recertificationQueryKeys.overdue, path: AUTH_ROUTES.session },
    { queryKey: recertificationQueryKeys.due, path: RECERTIFICATIONS_PATH },
  ];
}

/** The due and overdue links of the administrator's locations (docs/requirements/staff-accounts.md#annual-recertification). */
export function useDueRecertifications(enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: recertificationQueryKeys.due,
      enabled,
      // The server's answer in the page is not asked again at once (issue 39); a decision refreshes it.
      staleTime: 60_000,
      queryFn: ({ signal }) =>
        contractCall(contracts, (c, request) =>
          request(c.RECERTIFICATIONS_PATH, { schema: c.RecertificationListResponse.shape.data, signal }),
        ),
    }),
  );
}

/** Keep or remove, in bulk (all or nothing; a login older than the window asks for the password first). */
export const submitRecertifications = (decisions: RecertificationDecision[]) =>
  contractCall(contracts, (c, request) =>
    request(c.RECERTIFICATIONS_PATH, {
      method: 'POST',
      body: { decisions },
      schema: c.RecertificationResponse.shape.data,
    }),
  );

/**
 * Whether the logged-in user is an administrator with overdue recertifications: such a user is held on
 * `/admin/recertify` (docs/decisions/0041). Read from `GET /api/session`, which never extends the session.
 */
export function useRecertificationOverdue(enabled: boolean): boolean {
  const state = useQuery(overdueQueryOptions(enabled));
  return enabled && state.data?.recertificationOverdue === true;
}

const overdueQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: recertificationQueryKeys.overdue,
    queryFn: ({ signal }) => apiRequest(AUTH_ROUTES.session, { schema: SessionStateCheck, signal }),
    enabled,
    staleTime: 15_000,
  });

/**
 * Whether the console's other sections may load: the session answer has said that no recertification is overdue.
 * While one is, the API answers every other administrator call 403 `Recertification_Overdue`
 * (docs/requirements/staff-accounts.md#annual-recertification) and the page goes to `/admin/recertify`, so the
 * sections wait for the answer instead of asking in vain.
 */
export function useConsoleOpen(): boolean {
  const state = useQuery(overdueQueryOptions(true));
  return state.isSuccess && state.data.recertificationOverdue !== true;
}
