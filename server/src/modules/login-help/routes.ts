import {
  FORGOT_PASSWORD_PATH,
  FORGOT_USERNAME_PATH,
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  forgotUsernameRequest,
  ForgotUsernameResponse,
  RESET_PASSWORD_PATH,
  ResetPasswordRequest,
  ResetPasswordResponse,
  SELF_REACTIVATION_PATH,
  selfReactivationRequest,
  SelfReactivationResponse,
} from '@portal/contracts/login-help';
import { latestDayOnEarth } from '@portal/contracts/fields';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import {
  completeReactivation,
  forgotPassword,
  forgotUsername,
  requestReactivationCode,
  resetPassword,
  resetPasswordQuestion,
  verifyReactivationAnswer,
  verifyReactivationCode,
} from './service';

/**
 * Login help (docs/requirements/portal.md#login-help): forgot username, forgot password, reset from the emailed link,
 * and self-reactivation. Each route is throttled per client address in the shared store; the per-account allowances
 * and wrong-answer limits live in the service. Answers are never cached (platform/security-headers.ts, as every
 * `/api/` answer).
 */
export const loginHelpRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  const perClient = routeRateLimit({
    max: app.config.loginHelp.attemptsPerMinute,
    timeWindow: 60_000,
    key: 'ip',
  });
  // A date of birth after the latest day anywhere is refused by the schema (the app's clock, so tests can move it).
  const today = () => latestDayOnEarth(app.clock());

  app.post(
    FORGOT_USERNAME_PATH,
    {
      config: { audit: { action: 'login-help.forgot-username' }, rateLimit: perClient },
      schema: { body: forgotUsernameRequest(today), response: { 200: ForgotUsernameResponse } },
    },
    async (request) => {
      await forgotUsername(serviceContext(request), request.body);
      return { data: { received: true as const } };
    },
  );

  app.post(
    FORGOT_PASSWORD_PATH,
    {
      config: { audit: { action: 'login-help.forgot-password' }, rateLimit: perClient },
      schema: { body: ForgotPasswordRequest, response: { 200: ForgotPasswordResponse } },
    },
    async (request) => ({ data: { next: await forgotPassword(serviceContext(request), request.body) } }),
  );

  app.post(
    RESET_PASSWORD_PATH,
    {
      config: {
        audit: { action: 'login-help.reset-password' },
        rateLimit: perClient,
        errors: { 400: ['Reset_Token_Invalid', 'Security_Answer_Incorrect', 'Security_Answer_Attempts_Exceeded'] },
      },
      schema: { body: ResetPasswordRequest, response: { 200: ResetPasswordResponse } },
    },
    async (request) => {
      const { body } = request;
      const ctx = serviceContext(request);
      if (body.step === 'question') return { data: { questionId: await resetPasswordQuestion(ctx, body.token) } };
      await resetPassword(ctx, body);
      return { data: { passwordChanged: true as const } };
    },
  );

  app.post(
    SELF_REACTIVATION_PATH,
    {
      config: {
        audit: { action: 'account.reactivation' },
        rateLimit: perClient,
        errors: {
          400: ['Reactivation_Code_Invalid', 'Security_Answer_Incorrect', 'Security_Answer_Attempts_Exceeded'],
          403: ['Reactivation_Locked_Contact_Help_Desk', 'Reactivation_Disabled_Contact_Administrator'],
        },
      },
      schema: { body: selfReactivationRequest(today), response: { 200: SelfReactivationResponse } },
    },
    async (request) => {
      const { body } = request;
      const ctx = serviceContext(request);
      switch (body.step) {
        case 'request-code':
          return { data: { next: await requestReactivationCode(ctx, body) } };
        case 'verify-code':
          return { data: { next: 'answer' as const, questionId: await verifyReactivationCode(ctx, body) } };
        case 'verify-answer':
          await verifyReactivationAnswer(ctx, body);
          return { data: { next: 'new-password' as const } };
        case 'set-password':
          await completeReactivation(ctx, body);
          return { data: { next: 'done' as const } };
      }
    },
  );
};
