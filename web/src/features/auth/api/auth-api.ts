import { AUTH_ROUTES } from '@portal/contracts/paths';
import {
  ACCOUNT_ROUTES,
  LoginResponse,
  MfaEnrollConfirm,
  MfaEnrollStart,
  MfaResponse,
  PasskeyLoginOptionsResponse,
  PasskeyLoginResponse,
  PasswordChangeResponse,
  type LoginRequest,
  type PasskeyLoginRequest,
} from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';

/** The login calls (docs/requirements/api.md, docs/requirements/session.md#login). */
export const submitPassword = (body: LoginRequest) =>
  apiRequest(AUTH_ROUTES.login, { method: 'POST', body, schema: LoginResponse.shape.data });
export const submitMfaCode = (code: string) =>
  apiRequest(AUTH_ROUTES.mfa, { method: 'POST', body: { code }, schema: MfaResponse.shape.data });
export const startMfaEnrolment = () =>
  apiRequest(AUTH_ROUTES.mfaEnroll, { method: 'POST', body: {}, schema: MfaEnrollStart });
export const confirmMfaEnrolment = (code: string) =>
  apiRequest(AUTH_ROUTES.mfaEnroll, { method: 'POST', body: { code }, schema: MfaEnrollConfirm });
/** The new password of a login whose password has expired (after both factors). */
export const submitExpiredPasswordChange = (newPassword: string) =>
  apiRequest(AUTH_ROUTES.passwordChange, {
    method: 'POST',
    body: { newPassword },
    schema: PasswordChangeResponse.shape.data,
  });

export { useSystemUseNotice } from './system-use-notice';

/** The passkey instead of the code: options for the browser (the user's own passkeys only), then the assertion. */
export const getPasskeyLoginOptions = () =>
  apiRequest(ACCOUNT_ROUTES.passkeyLoginOptions, {
    method: 'POST',
    body: {},
    schema: PasskeyLoginOptionsResponse.shape.data,
  });
export const submitPasskeyAssertion = (body: PasskeyLoginRequest) =>
  apiRequest(ACCOUNT_ROUTES.passkeyLogin, { method: 'POST', body, schema: PasskeyLoginResponse.shape.data });
