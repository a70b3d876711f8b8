import {
  LoginRequest,
  LoginResponse,
  LogoutResponse,
  MfaEnrollRequest,
  MfaEnrollResponse,
  MfaRequest,
  MfaResponse,
  PasswordChangeRequest,
  PasswordChangeResponse,
  SessionExtendResponse,
  SessionResponse,
} from '@portal/contracts/auth';
import { ACCOUNT_ROUTES, ReauthenticateRequest, ReauthenticateResponse } from '@portal/contracts/account';
import { AUTH_ROUTES } from '@portal/contracts/paths';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { clearSessionCookie } from '../../identity/sessions/cookie';
import {
  lookupSession,
  recentAuthenticationSecondsLeft,
  requirePendingSession,
  requirePendingStage,
  requireSession,
} from '../../identity/sessions/guards';
import {
  completeMfa,
  completePasswordChange,
  confirmEnrolment,
  loginWithPassword,
  logout,
  reauthenticate,
  sessionAnswer,
  SESSION_WITH_STAFF_FLAGS,
  startEnrolment,
} from './service';
import { groupedKey, otpauthUrl, qrSvg } from '../../identity/mfa/totp';

/**
 * Login, second factor, logout and session state (docs/requirements/session.md, docs/requirements/api.md). Answers
 * are never cached. The login and MFA steps are throttled per client address in the shared store, in front of the
 * per-account lockout and the per-login code limit.
 */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  const perClient = routeRateLimit({ max: app.config.login.attemptsPerMinute, timeWindow: 60_000, key: 'ip' });

  app.post(
    AUTH_ROUTES.login,
    {
      config: {
        audit: { action: 'login.password' },
        rateLimit: perClient,
        errors: {
          401: ['Login_Failed'],
          403: [
            'Email_Not_Verified',
            'Account_Locked',
            'Account_Locked_Help_Desk',
            'Account_Disabled',
            'Account_Inactive',
          ],
        },
      },
      schema: { body: LoginRequest, response: { 200: LoginResponse } },
    },
    async (request, reply) => ({
      data: { next: await loginWithPassword(serviceContext(request, reply), request.body) },
    }),
  );

  app.post(
    AUTH_ROUTES.mfa,
    {
      config: {
        audit: { action: 'login.mfa' },
        rateLimit: perClient,
        errors: { 401: ['Mfa_Not_Pending', 'Session_Expired', 'Mfa_Code_Invalid'] },
      },
      schema: { body: MfaRequest, response: { 200: MfaResponse } },
    },
    async (request, reply) => {
      const session = await requirePendingSession(request, reply, 'mfa');
      return { data: await completeMfa(serviceContext(request, reply), session, request.body.code) };
    },
  );

  // An expired password's replacement: only after both factors (the `password-change` stage), throttled like them.
  app.post(
    AUTH_ROUTES.passwordChange,
    {
      // Before validation: at another stage the answer is 401 whatever the body.
      preValidation: requirePendingStage('password-change'),
      config: { audit: { action: 'password.change' }, rateLimit: perClient },
      schema: { body: PasswordChangeRequest, response: { 200: PasswordChangeResponse } },
    },
    async (request, reply) => {
      await completePasswordChange(serviceContext(request, reply), request.portalSession!, request.body.newPassword);
      return { data: { loggedIn: true as const } };
    },
  );

  app.post(
    AUTH_ROUTES.mfaEnroll,
    {
      config: {
        audit: { action: 'mfa.enrol' },
        rateLimit: perClient,
        errors: {
          400: ['Mfa_Enroll_Not_Started'],
          401: ['Mfa_Not_Pending', 'Session_Expired', 'Mfa_Setup_Code_Invalid'],
        },
      },
      schema: { body: MfaEnrollRequest, response: { 200: MfaEnrollResponse } },
    },
    async (request, reply) => {
      const session = await requirePendingSession(request, reply, 'mfa-enroll');
      const ctx = serviceContext(request, reply);
      if (request.body.code !== undefined) {
        return { data: await confirmEnrolment(ctx, session, request.body.code) };
      }
      const secret = await startEnrolment(ctx, session);
      const url = otpauthUrl(secret, session.username);
      return { data: { otpauthUrl: url, secret: groupedKey(secret), qrSvg: await qrSvg(url) } };
    },
  );

  // The password again, for changes that need a recent login; throttled like the login (it guesses the same secret).
  app.post(
    ACCOUNT_ROUTES.reauthenticate,
    {
      // Before validation: without a session the answer is 401 whatever the body.
      preValidation: requireSession,
      config: { audit: { action: 'reauthenticate' }, rateLimit: perClient, errors: { 400: ['Login_Failed'] } },
      schema: { body: ReauthenticateRequest, response: { 200: ReauthenticateResponse } },
    },
    async (request) => {
      const authenticatedAt = await reauthenticate(
        serviceContext(request),
        request.portalSession!,
        request.body.password,
      );
      const seconds = recentAuthenticationSecondsLeft(
        { authenticatedAt },
        app.clock(),
        app.config.login.reauthenticationWindowMs,
      );
      return { data: { recentAuthenticationSecondsLeft: seconds } };
    },
  );

  app.post(
    AUTH_ROUTES.logout,
    { config: { audit: { action: 'logout' } }, schema: { response: { 200: LogoutResponse } } },
    async (request, reply) => {
      const lookup = await lookupSession(request);
      if (lookup.status === 'valid') await logout(serviceContext(request, reply), lookup.session);
      clearSessionCookie(reply);
      return { data: { loggedIn: false as const } };
    },
  );

  // Reading the state is not activity: it never restarts the idle timer.
  app.get(AUTH_ROUTES.session, { schema: { response: { 200: SessionResponse } } }, async (request, reply) => {
    const ctx = serviceContext(request);
    const lookup = await lookupSession(request, SESSION_WITH_STAFF_FLAGS);
    if (lookup.status === 'expired') clearSessionCookie(reply);
    const valid = lookup.status === 'valid' ? lookup : undefined;
    const answer = await sessionAnswer(ctx, valid?.session, valid?.extras);
    // Ended by someone else: the browser is told why, once (the cookie goes with this answer).
    if (lookup.status === 'expired' && lookup.endedBecause)
      return { data: { ...answer, endedBecause: lookup.endedBecause } };
    return { data: answer };
  });

  app.post(
    AUTH_ROUTES.sessionExtend,
    {
      config: { audit: { exempt: 'keeps the session alive: activity, not a change a person asks for' } },
      preHandler: requireSession,
      schema: { response: { 200: SessionExtendResponse } },
    },
    async (request) => ({ data: await sessionAnswer(serviceContext(request), request.portalSession) }),
  );
};
