import {
  ACCOUNT_ROUTES,
  AccountResponse,
  AccountSessionsResponse,
  ActivityQuery,
  ActivityResponse,
  ChangeEmailRequest,
  ChangeEmailResponse,
  ChangePasswordRequest,
  ChangePasswordResponse,
  ChangePhoneRequest,
  ChangePhoneResponse,
  ChangeSecurityAnswersRequest,
  ChangeSecurityAnswersResponse,
  ConfirmEmailChangeRequest,
  ConfirmEmailChangeResponse,
  EndOtherSessionsResponse,
  MfaResetRequest,
  MfaResetResponse,
  RecoveryCodesResponse,
} from '@portal/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { requireRecentAuthentication, requireSession } from '../../identity/sessions/guards';
import {
  accountActivity,
  accountProfile,
  changePassword,
  changePhone,
  changeSecurityAnswers,
  confirmEmailChange,
  confirmMfaReset,
  endOtherSessions,
  listSessions,
  renewRecoveryCodes,
  requestEmailChange,
  startMfaReset,
} from './service';

/**
 * My account (docs/requirements/session.md#my-account). Every route but the emailed link's confirmation needs a
 * logged-in session, checked before the input (`preValidation`), so a caller without one gets 401 whatever it sends;
 * changes to the email, phone, password, authenticator or security answers also need a recent login (403
 * `Reauthentication_Required`). Answers are never cached: `platform/security-headers.ts` marks every `/api/` answer
 * `no-store`.
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  // A password or code is guessed here too: throttled per client like the login.
  const perClient = routeRateLimit({ max: app.config.login.attemptsPerMinute, timeWindow: 60_000, key: 'ip' });
  const recent = [requireSession, requireRecentAuthentication];

  app.get(
    ACCOUNT_ROUTES.account,
    { preValidation: requireSession, schema: { response: { 200: AccountResponse } } },
    async (request) => ({ data: await accountProfile(serviceContext(request), request.portalSession!) }),
  );

  app.post(
    ACCOUNT_ROUTES.password,
    {
      preValidation: recent,
      config: {
        audit: { action: 'password.change' },
        rateLimit: perClient,
        errors: { 400: ['Current_Password_Invalid'] },
      },
      schema: { body: ChangePasswordRequest, response: { 200: ChangePasswordResponse } },
    },
    async (request, reply) => {
      const otherSessionsEnded = await changePassword(
        serviceContext(request, reply),
        request.portalSession!,
        request.body,
      );
      return { data: { changed: true as const, otherSessionsEnded } };
    },
  );

  app.post(
    ACCOUNT_ROUTES.email,
    {
      preValidation: recent,
      config: {
        audit: { action: 'email.change_requested' },
        rateLimit: perClient,
        errors: { 400: ['Email_Unchanged'] },
      },
      schema: { body: ChangeEmailRequest, response: { 200: ChangeEmailResponse } },
    },
    async (request) => {
      await requestEmailChange(serviceContext(request), request.portalSession!, request.body.email);
      return { data: { requested: true as const } };
    },
  );

  // Opened from the email, perhaps on another device: the token alone proves the new address.
  app.post(
    ACCOUNT_ROUTES.emailConfirm,
    {
      config: {
        audit: { action: 'email.changed' },
        rateLimit: perClient,
        errors: { 400: ['Email_Change_Link_Invalid'] },
      },
      schema: { body: ConfirmEmailChangeRequest, response: { 200: ConfirmEmailChangeResponse } },
    },
    async (request) => {
      await confirmEmailChange(serviceContext(request), request.body.token);
      return { data: { changed: true as const } };
    },
  );

  app.post(
    ACCOUNT_ROUTES.phone,
    {
      preValidation: recent,
      config: { audit: { action: 'phone.changed' }, rateLimit: perClient },
      schema: { body: ChangePhoneRequest, response: { 200: ChangePhoneResponse } },
    },
    async (request) => ({
      data: { phoneMasked: await changePhone(serviceContext(request), request.portalSession!, request.body.phone) },
    }),
  );

  app.post(
    ACCOUNT_ROUTES.securityAnswers,
    {
      preValidation: recent,
      config: {
        audit: { action: 'security_answers.changed' },
        rateLimit: perClient,
        errors: { 400: ['Security_Question_Invalid'] },
      },
      schema: { body: ChangeSecurityAnswersRequest, response: { 200: ChangeSecurityAnswersResponse } },
    },
    async (request) => {
      await changeSecurityAnswers(serviceContext(request), request.portalSession!, request.body.securityQuestions);
      return { data: { changed: true as const } };
    },
  );

  app.post(
    ACCOUNT_ROUTES.mfaReset,
    {
      preValidation: recent,
      config: {
        audit: { action: 'mfa.reset' },
        rateLimit: perClient,
        errors: { 400: ['Mfa_Setup_Code_Invalid', 'Mfa_Reset_Not_Started'] },
      },
      schema: { body: MfaResetRequest, response: { 200: MfaResetResponse } },
    },
    async (request, reply) => {
      const ctx = serviceContext(request, reply);
      const session = request.portalSession!;
      if (request.body.code === undefined) return { data: await startMfaReset(ctx, session) };
      return { data: await confirmMfaReset(ctx, session, request.body.code) };
    },
  );

  app.post(
    ACCOUNT_ROUTES.recoveryCodes,
    {
      preValidation: recent,
      config: { audit: { action: 'mfa.recovery_codes' }, rateLimit: perClient },
      schema: { response: { 200: RecoveryCodesResponse } },
    },
    async (request, reply) => ({
      data: await renewRecoveryCodes(serviceContext(request, reply), request.portalSession!),
    }),
  );

  app.get(
    ACCOUNT_ROUTES.sessions,
    { preValidation: requireSession, schema: { response: { 200: AccountSessionsResponse } } },
    async (request) => ({ data: { sessions: await listSessions(serviceContext(request), request.portalSession!) } }),
  );

  app.post(
    ACCOUNT_ROUTES.endOtherSessions,
    {
      config: { audit: { action: 'sessions.ended_others' } },
      preValidation: requireSession,
      schema: { response: { 200: EndOtherSessionsResponse } },
    },
    async (request) => ({ data: { ended: await endOtherSessions(serviceContext(request), request.portalSession!) } }),
  );

  app.get(
    ACCOUNT_ROUTES.activity,
    { preValidation: requireSession, schema: { querystring: ActivityQuery, response: { 200: ActivityResponse } } },
    async (request) => ({
      data: await accountActivity(serviceContext(request), request.portalSession!.userId, request.query.page ?? 1),
    }),
  );
};
