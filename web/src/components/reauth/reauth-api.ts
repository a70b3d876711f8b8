import type { ErrorCode } from '@portal/contracts/errors';
import type { ReauthenticateRequest } from '@portal/contracts/account';

/** The error code of an account change refused because the login is older than the re-authentication window. */
export const REAUTHENTICATION_REQUIRED_CODE = 'Reauthentication_Required' satisfies ErrorCode;

/**
 * `POST /api/auth/reauthenticate`: the password again refreshes the login's time (a wrong one counts toward the
 * lockout). The HTTP client and the answer's schema load with the call: the provider that imports this module is on
 * every page that offers changes, which then builds no schema (docs/decisions/0060).
 */
export async function reauthenticate(body: ReauthenticateRequest) {
  const [{ apiRequest }, { ACCOUNT_ROUTES, ReauthenticateResponse }] = await Promise.all([
    import('../../lib/api-client'),
    import('@portal/contracts/account'),
  ]);
  return apiRequest(ACCOUNT_ROUTES.reauthenticate, { method: 'POST', body, schema: ReauthenticateResponse.shape.data });
}
