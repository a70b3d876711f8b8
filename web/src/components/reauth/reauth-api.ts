import { ACCOUNT_ROUTES, ReauthenticateResponse, type ErrorCode, type ReauthenticateRequest } from '@portal/contracts';
import { apiRequest } from '../../lib/api-client';

/** The error code of an account change refused because the login is older than the re-authentication window. */
export const REAUTHENTICATION_REQUIRED_CODE = 'Reauthentication_Required' satisfies ErrorCode;

/** `POST /api/auth/reauthenticate`: the password again refreshes the login's time (a wrong one counts toward the lockout). */
export const reauthenticate = (body: ReauthenticateRequest) =>
  apiRequest(ACCOUNT_ROUTES.reauthenticate, { method: 'POST', body, schema: ReauthenticateResponse.shape.data });
