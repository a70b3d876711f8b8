import {
  FIND_ADMIN_CONTACT_PATH,
  FIND_ADMIN_PATH,
  FindAdminContactResponse,
  FindAdminResponse,
  FORGOT_PASSWORD_PATH,
  FORGOT_USERNAME_PATH,
  ForgotPasswordResponse,
  ForgotUsernameResponse,
  RESET_PASSWORD_PATH,
  ResetPasswordDone,
  ResetPasswordQuestion,
  SELF_REACTIVATION_PATH,
  SelfReactivationResponse,
  type FindAdminContactRequest,
  type FindAdminRequest,
  type ForgotPasswordRequest,
  type ForgotUsernameRequest,
  type ResetPasswordRequest,
  type SelfReactivationRequest,
} from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';

/** The login-help calls (docs/requirements/portal.md#login-help). */
export const forgotUsername = (body: ForgotUsernameRequest) =>
  apiRequest(FORGOT_USERNAME_PATH, { method: 'POST', body, schema: ForgotUsernameResponse.shape.data });

export const forgotPassword = (body: ForgotPasswordRequest) =>
  apiRequest(FORGOT_PASSWORD_PATH, { method: 'POST', body, schema: ForgotPasswordResponse.shape.data });

export const getResetQuestion = (token: string) =>
  apiRequest(RESET_PASSWORD_PATH, {
    method: 'POST',
    body: { step: 'question', token } satisfies ResetPasswordRequest,
    schema: ResetPasswordQuestion,
  });

export const resetPassword = (body: Omit<Extract<ResetPasswordRequest, { step: 'set-password' }>, 'step'>) =>
  apiRequest(RESET_PASSWORD_PATH, {
    method: 'POST',
    body: { step: 'set-password', ...body } satisfies ResetPasswordRequest,
    schema: ResetPasswordDone,
  });

export const selfReactivation = (body: SelfReactivationRequest) =>
  apiRequest(SELF_REACTIVATION_PATH, { method: 'POST', body, schema: SelfReactivationResponse.shape.data });

export const findAdministrators = (body: FindAdminRequest) =>
  apiRequest(FIND_ADMIN_PATH, { method: 'POST', body, schema: FindAdminResponse.shape.data });

export const contactAdministrators = (body: FindAdminContactRequest) =>
  apiRequest(FIND_ADMIN_CONTACT_PATH, { method: 'POST', body, schema: FindAdminContactResponse.shape.data });
