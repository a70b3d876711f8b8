import type { IdentityCheck, OperatorSession, OpsLocation, OpsPerson } from '@portal/contracts/ops';
import { OPS_ROUTES, opsPath } from '@portal/contracts/ops-routes';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-error';
import { contractCall } from '../../../lib/contract-call';

// The answers' schemas (zod), loaded when a call is made (lib/contract-call.ts): the console's first download carries
// no schema (issue 39).
const contracts = () => import('@portal/contracts/ops');

// Other people's personal data: never kept once the page is left, never refetched behind the operator's back (each
// read is audited and counts as console activity).
const personal = { gcTime: 0, staleTime: Infinity, refetchOnWindowFocus: false, retry: false } as const;

export const opsQueryKeys = {
  all: ['ops'] as const,
  session: ['ops', 'session'] as const,
  search: (q: string) => ['ops', 'search', q] as const,
  person: (userId: string) => ['ops', 'person', userId] as const,
  location: (locationId: string) => ['ops', 'location', locationId] as const,
};

/** The directory's sign-in (a full page navigation: the server redirects to the directory), back at `returnTo`. */
export const signInHref = (returnTo: string) => `${OPS_ROUTES.signIn}?returnTo=${encodeURIComponent(returnTo)}`;

/**
 * Who the console's session is: the operator, or why there is none (the 401's code: `Ops_Sign_In_Required` without a
 * session, `Ops_Session_Expired` for one that ended). A 401 is an answer here, not a failure, so the server can put it
 * in the page it draws (docs/decisions/0088) and the browser starts from it.
 */
export type ConsoleSession = { signedIn: true; operator: OperatorSession } | { signedIn: false; code: string };

/** `GET /api/ops/session` read by `read` (the browser's call, or the server's in-process read), as a `ConsoleSession`. */
export async function readConsoleSession(read: () => Promise<OperatorSession>): Promise<ConsoleSession> {
  try {
    return { signedIn: true, operator: await read() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { signedIn: false, code: error.code };
    throw error;
  }
}

/** `GET /api/ops/session`: the signed-in operator, or why there is none. Does not extend the session. */
export const operatorSessionQueryOptions = () =>
  queryOptions({
    queryKey: opsQueryKeys.session,
    queryFn: ({ signal }) =>
      readConsoleSession(() =>
        contractCall(contracts, (c, request) =>
          request(OPS_ROUTES.session, { schema: c.OperatorSessionResponse.shape.data, signal }),
        ),
      ),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });

export const signOut = () =>
  contractCall(contracts, (c, request) =>
    request(OPS_ROUTES.signOut, { method: 'POST', body: {}, schema: c.OpsSignOutResponse.shape.data }),
  );

/** `GET /api/ops/search?q=`: people and locations by username, email, name, NPI or PTAN. */
export const useOpsSearch = (q: string) =>
  useQuery({
    queryKey: opsQueryKeys.search(q),
    queryFn: ({ signal }) =>
      contractCall(contracts, (c, request) =>
        request(`${OPS_ROUTES.search}?q=${encodeURIComponent(q)}`, { schema: c.OpsSearchResponse.shape.data, signal }),
      ),
    enabled: q !== '',
    ...personal,
  });

export const useOpsPerson = (userId: string) =>
  useQuery({
    queryKey: opsQueryKeys.person(userId),
    queryFn: ({ signal }) =>
      contractCall(contracts, (c, request) =>
        request(opsPath(OPS_ROUTES.person, { userId }), { schema: c.OpsPersonResponse.shape.data, signal }),
      ),
    ...personal,
  });

export const useOpsLocation = (locationId: string) =>
  useQuery({
    queryKey: opsQueryKeys.location(locationId),
    queryFn: ({ signal }) =>
      contractCall(contracts, (c, request) =>
        request(opsPath(OPS_ROUTES.location, { locationId }), { schema: c.OpsLocationResponse.shape.data, signal }),
      ),
    ...personal,
  });

export const revealField = (userId: string, field: 'email' | 'phone') =>
  contractCall(contracts, (c, request) =>
    request(opsPath(OPS_ROUTES.revealPerson, { userId }), {
      method: 'POST',
      body: { field },
      schema: c.OpsRevealResponse.shape.data,
    }),
  );

/** The actions on a person's page; each answers the page as it is now. */
export type PersonActionKind = 'unlock' | 'end-sessions' | 'resend-verification' | 'reset-mfa' | 'disable' | 'enable';

const personActionRoutes: Record<PersonActionKind, string> = {
  unlock: OPS_ROUTES.unlockPerson,
  'end-sessions': OPS_ROUTES.endSessions,
  'resend-verification': OPS_ROUTES.resendVerification,
  'reset-mfa': OPS_ROUTES.resetMfa,
  disable: OPS_ROUTES.disablePerson,
  enable: OPS_ROUTES.enablePerson,
};

export const runPersonAction = (
  userId: string,
  kind: PersonActionKind,
  body: { reason: string; identityChecks?: IdentityCheck[] },
): Promise<OpsPerson> =>
  contractCall(contracts, (c, request) =>
    request(opsPath(personActionRoutes[kind], { userId }), {
      method: 'POST',
      body,
      schema: c.OpsPersonResponse.shape.data,
    }),
  );

export const restoreAdministrator = (
  locationId: string,
  body: { reason: string; userId: string },
): Promise<OpsLocation> =>
  contractCall(contracts, (c, request) =>
    request(opsPath(OPS_ROUTES.restoreAdministrator, { locationId }), {
      method: 'POST',
      body,
      schema: c.OpsLocationResponse.shape.data,
    }),
  );

/**
 * After a console request the server moved the session's idle end: read the session again (that read does not move
 * it) so the console's idle warning counts from the last request, as the server does.
 */
export const refreshOperatorSession = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: opsQueryKeys.session });

/**
 * "Stay signed in": a console request the server counts as activity (restarts the idle time, even on a page with no
 * data of its own to read again); its answer is the session with the new idle end.
 */
export async function keepSessionAlive(queryClient: QueryClient) {
  const session = await contractCall(contracts, (c, request) =>
    request(OPS_ROUTES.keepAlive, { method: 'POST', body: {}, schema: c.OperatorSessionResponse.shape.data }),
  );
  const answer: ConsoleSession = { signedIn: true, operator: session };
  queryClient.setQueryData(opsQueryKeys.session, answer);
}
