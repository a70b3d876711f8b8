import {
  ACCESS_REQUEST_ROUTES,
  UserRegistrationResponse,
  type UserRegistrationRequest,
} from '@portal/contracts/access-requests';
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
import { FIND_ADMIN_PATH, FindAdminResponse, type FindAdminRequest } from '@portal/contracts/find-admin';
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

/** The end user's registration (docs/requirements/staff-accounts.md#end-users). */
export const registerUser = (body: UserRegistrationRequest) =>
  apiRequest(ACCESS_REQUEST_ROUTES.userRegistration, {
    method: 'POST',
    body,
    schema: UserRegistrationResponse.shape.data,
  });

/**
 * The name of the location the identifiers match and whether it has an administrator (the public lookup of
 * docs/requirements/portal.md#find-my-administrator): a person adding a location sees which office it is and whether
 * anyone can approve the request yet.
 */
export const lookUpLocation = (body: FindAdminRequest) =>
  apiRequest(FIND_ADMIN_PATH, { method: 'POST', body, schema: FindAdminResponse.shape.data });
