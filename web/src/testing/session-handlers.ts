import type { SessionState } from '@portal/contracts';
import { http, HttpResponse } from 'msw';

/** `GET /api/session` answering `state` (default: nobody logged in, as on a first visit). */
export const sessionRoute = (state: SessionState = { loggedIn: false }) =>
  http.get('/api/session', () => HttpResponse.json({ data: state }));

/** The session calls every app render makes; tests override them with `server.use(...)`. */
export const sessionHandlers = [
  sessionRoute(),
  http.post('/api/auth/logout', () => HttpResponse.json({ data: { loggedIn: false } })),
];
