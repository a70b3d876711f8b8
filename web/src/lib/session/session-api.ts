import { AUTH_ROUTES } from '@portal/contracts/paths';
import { SessionStateCheck } from '@portal/contracts/response-checks';
import { apiRequest } from '../api-client';

// Checked without zod: every page's first load runs the session check, and zod with the auth schemas took 31–77 ms
// at 4× CPU slowdown there (docs/decisions/0060).

/** `GET /api/session` (docs/requirements/api.md): whether this browser is logged in; reading it never extends the session. */
export const fetchSessionState = (signal?: AbortSignal) =>
  apiRequest(AUTH_ROUTES.session, { schema: SessionStateCheck, signal });

/** `POST /api/session/extend`: I'm still here restarts the server's idle limit too. */
export const extendServerSession = () =>
  apiRequest(AUTH_ROUTES.sessionExtend, { method: 'POST', schema: SessionStateCheck });

/** `POST /api/auth/logout`: destroys the server session (never fails for an already ended one). */
export const logoutServerSession = async () => {
  // A chosen action, not the first load: its answer's schema loads with it.
  const { LogoutResponse } = await import('@portal/contracts/auth');
  return apiRequest(AUTH_ROUTES.logout, { method: 'POST', schema: LogoutResponse.shape.data });
};
