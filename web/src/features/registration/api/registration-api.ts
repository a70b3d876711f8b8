import {
  REGISTRATION_ROUTES,
  SelfRegistrationResponse,
  ValidateAuthorityResponse,
  ValidateProviderResponse,
  VerifyEmailResponse,
  type SelfRegistrationRequest,
  type ValidateAuthorityRequest,
  type ValidateProviderRequest,
} from '@portal/contracts/registration';
import { apiRequest } from '../../../lib/api-client';

/** The registration calls (docs/requirements/portal.md#provider-validation and the sections after it). */
export const validateProvider = (body: ValidateProviderRequest) =>
  apiRequest(REGISTRATION_ROUTES.validateProvider, {
    method: 'POST',
    body: { ...body, passthroughResponse: true },
    schema: ValidateProviderResponse.shape.data,
  });

export const validateAuthority = (body: ValidateAuthorityRequest) =>
  apiRequest(REGISTRATION_ROUTES.validateAuthority, {
    method: 'POST',
    body: { ...body, passthroughResponse: true },
    schema: ValidateAuthorityResponse.shape.data,
  });

export const registerAdministrator = (body: SelfRegistrationRequest) =>
  apiRequest(REGISTRATION_ROUTES.selfRegistration, {
    method: 'POST',
    body,
    schema: SelfRegistrationResponse.shape.data,
  });

export const verifyEmail = (token: string) =>
  apiRequest(REGISTRATION_ROUTES.verifyEmail, {
    method: 'POST',
    body: { token },
    schema: VerifyEmailResponse.shape.data,
  });
