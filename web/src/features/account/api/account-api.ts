import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  ACCOUNT_ROUTES,
  AccountResponse,
  AccountSessionsResponse,
  ActivityResponse,
  ChangeEmailResponse,
  ChangePasswordResponse,
  ChangePhoneResponse,
  ChangeSecurityAnswersResponse,
  ConfirmEmailChangeResponse,
  EndOtherSessionsResponse,
  MfaResetConfirmResponse,
  MfaResetStartResponse,
  PasskeyListResponse,
  PasskeyRegistrationOptionsResponse,
  PasskeyRegistrationResponse,
  PasskeyRemoveResponse,
  PasskeyRenameResponse,
  passkeyRoute,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type ChangePhoneRequest,
  type ChangeSecurityAnswersRequest,
  type PasskeyRegistrationRequest,
} from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';

/** My account's calls (docs/requirements/api.md); the account changes among them may need re-authentication. */

export const accountQueryKeys = {
  account: ['account'] as const,
  sessions: ['account', 'sessions'] as const,
  activity: (page: number) => ['account', 'activity', page] as const,
  passkeys: ['account', 'passkeys'] as const,
};

// Personal data: never kept in the cache once the page is left.
const personal = { gcTime: 0, refetchOnWindowFocus: false } as const;

export const getAccountQueryOptions = () =>
  queryOptions({
    queryKey: accountQueryKeys.account,
    queryFn: ({ signal }) => apiRequest(ACCOUNT_ROUTES.account, { schema: AccountResponse.shape.data, signal }),
    ...personal,
  });
export const useAccount = () => useQuery(getAccountQueryOptions());

export const getAccountSessionsQueryOptions = () =>
  queryOptions({
    queryKey: accountQueryKeys.sessions,
    queryFn: ({ signal }) =>
      apiRequest(ACCOUNT_ROUTES.sessions, { schema: AccountSessionsResponse.shape.data, signal }),
    ...personal,
  });
export const useAccountSessions = () => useQuery(getAccountSessionsQueryOptions());

export const getActivityQueryOptions = (page: number) =>
  queryOptions({
    queryKey: accountQueryKeys.activity(page),
    queryFn: ({ signal }) =>
      apiRequest(`${ACCOUNT_ROUTES.activity}?page=${page}`, { schema: ActivityResponse.shape.data, signal }),
    ...personal,
  });

export const getPasskeysQueryOptions = () =>
  queryOptions({
    queryKey: accountQueryKeys.passkeys,
    queryFn: ({ signal }) => apiRequest(ACCOUNT_ROUTES.passkeys, { schema: PasskeyListResponse.shape.data, signal }),
    ...personal,
  });
export const usePasskeys = () => useQuery(getPasskeysQueryOptions());

export const changePassword = (body: ChangePasswordRequest) =>
  apiRequest(ACCOUNT_ROUTES.password, { method: 'POST', body, schema: ChangePasswordResponse.shape.data });

export const changeEmail = (body: ChangeEmailRequest) =>
  apiRequest(ACCOUNT_ROUTES.email, { method: 'POST', body, schema: ChangeEmailResponse.shape.data });
export const confirmEmailChange = (token: string) =>
  apiRequest(ACCOUNT_ROUTES.emailConfirm, {
    method: 'POST',
    body: { token },
    schema: ConfirmEmailChangeResponse.shape.data,
  });
export const changePhone = (body: ChangePhoneRequest) =>
  apiRequest(ACCOUNT_ROUTES.phone, { method: 'POST', body, schema: ChangePhoneResponse.shape.data });
export const changeSecurityAnswers = (body: ChangeSecurityAnswersRequest) =>
  apiRequest(ACCOUNT_ROUTES.securityAnswers, {
    method: 'POST',
    body,
    schema: ChangeSecurityAnswersResponse.shape.data,
  });

export const endOtherSessions = () =>
  apiRequest(ACCOUNT_ROUTES.endOtherSessions, {
    method: 'POST',
    body: {},
    schema: EndOtherSessionsResponse.shape.data,
  });

export const startMfaReset = () =>
  apiRequest(ACCOUNT_ROUTES.mfaReset, { method: 'POST', body: {}, schema: MfaResetStartResponse.shape.data });
export const confirmMfaReset = (code: string) =>
  apiRequest(ACCOUNT_ROUTES.mfaReset, { method: 'POST', body: { code }, schema: MfaResetConfirmResponse.shape.data });

export const getPasskeyRegistrationOptions = () =>
  apiRequest(ACCOUNT_ROUTES.passkeyRegistrationOptions, {
    method: 'POST',
    body: {},
    schema: PasskeyRegistrationOptionsResponse.shape.data,
  });
export const registerPasskey = (body: PasskeyRegistrationRequest) =>
  apiRequest(ACCOUNT_ROUTES.passkeyRegistration, {
    method: 'POST',
    body,
    schema: PasskeyRegistrationResponse.shape.data,
  });
export const renamePasskey = (id: string, name: string) =>
  apiRequest(passkeyRoute(ACCOUNT_ROUTES.passkeyRename, id), {
    method: 'POST',
    body: { name },
    schema: PasskeyRenameResponse.shape.data,
  });
export const removePasskey = (id: string) =>
  apiRequest(passkeyRoute(ACCOUNT_ROUTES.passkeyRemove, id), {
    method: 'POST',
    body: {},
    schema: PasskeyRemoveResponse.shape.data,
  });
