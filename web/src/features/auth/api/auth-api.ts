import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  LoginResponse,
  MfaEnrollConfirm,
  MfaEnrollStart,
  MfaResponse,
  SystemUseNoticeEntrySchema,
  type LoginRequest,
} from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { contentRequest } from '../../../lib/content-request';

/** The login calls (docs/requirements/api.md, docs/requirements/session.md#login). */
export const submitPassword = (body: LoginRequest) =>
  apiRequest('/api/auth/login', { method: 'POST', body, schema: LoginResponse.shape.data });
export const submitMfaCode = (code: string) =>
  apiRequest('/api/auth/mfa', { method: 'POST', body: { code }, schema: MfaResponse.shape.data });
export const startMfaEnrolment = () =>
  apiRequest('/api/auth/mfa/enroll', { method: 'POST', body: {}, schema: MfaEnrollStart });
export const confirmMfaEnrolment = (code: string) =>
  apiRequest('/api/auth/mfa/enroll', { method: 'POST', body: { code }, schema: MfaEnrollConfirm });

/** The CMS-managed system-use notice above the login form (CMS ARS AC-8). */
export const getSystemUseNoticeQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'system-use-notice'],
    queryFn: ({ signal }) => contentRequest('system-use-notice', {}, SystemUseNoticeEntrySchema, signal),
    staleTime: 180_000,
  });

export function useSystemUseNotice() {
  return useQuery(getSystemUseNoticeQueryOptions());
}
