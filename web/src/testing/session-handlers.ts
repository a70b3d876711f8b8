import { AUTH_ROUTES } from '@portal/contracts/paths';
import { ACCOUNT_ROUTES, DDE_REQUESTS_PATH, type SessionState } from '@portal/contracts';
import { ACCESS_REQUEST_ROUTES } from '@portal/contracts/access-requests';
import { http, HttpResponse } from 'msw';
import { demoAccount } from './account-handlers';

/** `GET /api/session` answering `state` (default: nobody logged in, as on a first visit). */
export const sessionRoute = (state: SessionState = { loggedIn: false }) =>
  http.get(AUTH_ROUTES.session, () => HttpResponse.json({ data: state }));

/** The session calls every app render makes; tests override them with `server.use(...)`. */
export const sessionHandlers = [
  sessionRoute(),
  http.post(AUTH_ROUTES.logout, () => HttpResponse.json({ data: { loggedIn: false } })),
  // The portal home, where a login lands: no DDE requests yet unless a test says otherwise.
  http.get(ACCOUNT_ROUTES.account, () => HttpResponse.json({ data: demoAccount })),
  http.get(DDE_REQUESTS_PATH, () => HttpResponse.json({ data: { requests: [] } })),
  http.get(ACCESS_REQUEST_ROUTES.mine, () => HttpResponse.json({ data: { requests: [] } })),
];
