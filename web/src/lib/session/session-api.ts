import { AUTH_ROUTES } from '@portal/contracts/paths';
import { LogoutResponse, SessionState } from '@portal/contracts';
import { apiRequest } from '../api-client';

/** `GET /api/session` (docs/requirements/api.md): whether this browser is logged in; reading it never extends the session. */
export const fetchSessionState = (signal?: AbortSignal) =>
  apiRequest(AUTH_ROUTES.session, { schema: SessionState, signal });

/** `POST /api/session/extend`: I'm still here restarts the server's idle limit too. */
export const extendServerSession = () =>
  apiRequest(AUTH_ROUTES.sessionExtend, { method: 'POST', schema: SessionState });

/** `POST /api/auth/logout`: destroys the server session (never fails for an already ended one). */
export const logoutServerSession = () =>
  apiRequest(AUTH_ROUTES.logout, { method: 'POST', schema: LogoutResponse.shape.data });
