import { queryOptions, useQuery } from '@tanstack/react-query';
import type * as accountContracts from '@portal/contracts/account';
import type {
  ChangeEmailRequest,
  ChangePasswordRequest,
  ChangePhoneRequest,
  ChangeSecurityAnswersRequest,
  PasskeyRegistrationRequest,
} from '@portal/contracts/account';
import type { ResponseCheck } from '@portal/contracts/response-checks';

/**
 * My account's calls (docs/requirements/api.md); the account changes among them may need re-authentication. Each
 * call loads the HTTP client and the contracts' account module (its routes and the answer's schema, with zod) when
 * it runs, as the form pages' calls do (docs/decisions/0060): the page and its
 * sections build no schema before a call is made.
 */

type Contracts = typeof accountContracts;

async function accountCall<T>(
  route: (contracts: Contracts) => string,
  schemaOf: (contracts: Contracts) => ResponseCheck<T>,
  init: { method?: 'POST'; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const [{ apiRequest }, contracts] = await Promise.all([
    import('../../../lib/api-client'),
    import('@portal/contracts/account'),
  ]);
  return apiRequest(route(contracts), { ...init, schema: schemaOf(contracts) });
}

/** Recent activity's first page (the one the page opens with). */
export const FIRST_ACTIVITY_PAGE = 1;

export const accountQueryKeys = {
  account: ['account'] as const,
  sessions: ['account', 'sessions'] as const,
  activity: (page: number) => ['account', 'activity', page] as const,
  passkeys: ['account', 'passkeys'] as const,
};

// Personal data: never kept in the cache once the page is left. An answer the server put in the page (see
// `accountSessionQueries`) is as fresh as the page: a section rendered later does not ask for it again.
const personal = { gcTime: 0, staleTime: 60_000, refetchOnWindowFocus: false } as const;

/**
 * What My account's first screens show, read by the server with the request's session into the page it renders
 * (docs/decisions/0060): the page asks the API for none of it while it loads, and
 * builds no schema for it.
 */
export async function accountSessionQueries() {
  const { ACCOUNT_ROUTES } = await import('@portal/contracts/account');
  return [
    { queryKey: accountQueryKeys.account, path: ACCOUNT_ROUTES.account },
    { queryKey: accountQueryKeys.passkeys, path: ACCOUNT_ROUTES.passkeys },
    { queryKey: accountQueryKeys.sessions, path: ACCOUNT_ROUTES.sessions },
    {
      queryKey: accountQueryKeys.activity(FIRST_ACTIVITY_PAGE),
      path: `${ACCOUNT_ROUTES.activity}?page=${FIRST_ACTIVITY_PAGE}`,
    },
  ];
}

export const getAccountQueryOptions = () =>
  queryOptions({
    queryKey: accountQueryKeys.account,
    queryFn: ({ signal }) =>
      accountCall(
        (c) => c.ACCOUNT_ROUTES.account,
        (c) => c.AccountResponse.shape.data,
        { signal },
      ),
    ...personal,
  });
export const useAccount = () => useQuery(getAccountQueryOptions());

export const getAccountSessionsQueryOptions = () =>
  queryOptions({
    queryKey: accountQueryKeys.sessions,
    queryFn: ({ signal }) =>
      accountCall(
        (c) => c.ACCOUNT_ROUTES.sessions,
        (c) => c.AccountSessionsResponse.shape.data,
        { signal },
      ),
    ...personal,
  });
export const useAccountSessions = () => useQuery(getAccountSessionsQueryOptions());

export const getActivityQueryOptions = (page: number) =>
  queryOptions({
    queryKey: accountQueryKeys.activity(page),
    queryFn: ({ signal }) =>
      accountCall(
        (c) => `${c.ACCOUNT_ROUTES.activity}?page=${page}`,
        (c) => c.ActivityResponse.shape.data,
        { signal },
      ),
    ...personal,
  });

export const getPasskeysQueryOptions = () =>
  queryOptions({
    queryKey: accountQueryKeys.passkeys,
    queryFn: ({ signal }) =>
      accountCall(
        (c) => c.ACCOUNT_ROUTES.passkeys,
        (c) => c.PasskeyListResponse.shape.data,
        { signal },
      ),
    ...personal,
  });
export const usePasskeys = () => useQuery(getPasskeysQueryOptions());

export const changePassword = (body: ChangePasswordRequest) =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.password,
    (c) => c.ChangePasswordResponse.shape.data,
    { method: 'POST', body },
  );

export const changeEmail = (body: ChangeEmailRequest) =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.email,
    (c) => c.ChangeEmailResponse.shape.data,
    { method: 'POST', body },
  );
export const confirmEmailChange = (token: string) =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.emailConfirm,
    (c) => c.ConfirmEmailChangeResponse.shape.data,
    { method: 'POST', body: { token } },
  );
export const changePhone = (body: ChangePhoneRequest) =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.phone,
    (c) => c.ChangePhoneResponse.shape.data,
    { method: 'POST', body },
  );
export const changeSecurityAnswers = (body: ChangeSecurityAnswersRequest) =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.securityAnswers,
    (c) => c.ChangeSecurityAnswersResponse.shape.data,
    { method: 'POST', body },
  );

export const endOtherSessions = () =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.endOtherSessions,
    (c) => c.EndOtherSessionsResponse.shape.data,
    { method: 'POST', body: {} },
  );

export const startMfaReset = () =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.mfaReset,
    (c) => c.MfaResetStartResponse.shape.data,
    { method: 'POST', body: {} },
  );
export const confirmMfaReset = (code: string) =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.mfaReset,
    (c) => c.MfaResetConfirmResponse.shape.data,
    { method: 'POST', body: { code } },
  );

/** 10 new recovery codes replace the old ones (needs a recent login). */
export const renewRecoveryCodes = () =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.recoveryCodes,
    (c) => c.RecoveryCodesResponse.shape.data,
    { method: 'POST' },
  );

export const getPasskeyRegistrationOptions = () =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.passkeyRegistrationOptions,
    (c) => c.PasskeyRegistrationOptionsResponse.shape.data,
    { method: 'POST', body: {} },
  );
export const registerPasskey = (body: PasskeyRegistrationRequest) =>
  accountCall(
    (c) => c.ACCOUNT_ROUTES.passkeyRegistration,
    (c) => c.PasskeyRegistrationResponse.shape.data,
    { method: 'POST', body },
  );
export const renamePasskey = (id: string, name: string) =>
  accountCall(
    (c) => c.passkeyRoute(c.ACCOUNT_ROUTES.passkeyRename, id),
    (c) => c.PasskeyRenameResponse.shape.data,
    { method: 'POST', body: { name } },
  );
export const removePasskey = (id: string) =>
  accountCall(
    (c) => c.passkeyRoute(c.ACCOUNT_ROUTES.passkeyRemove, id),
    (c) => c.PasskeyRemoveResponse.shape.data,
    { method: 'POST', body: {} },
  );
