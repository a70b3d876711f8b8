import { errorDefaultMessages, type ErrorCode } from '@portal/contracts/errors';
import {
  REGISTRATION_ROUTES,
  ResendVerificationRequest,
  ResendVerificationResponse,
  selfRegistrationRequest,
  SelfRegistrationResponse,
  validateAuthorityRequest,
  ValidateAuthorityResponse,
  ValidateProviderRequest,
  ValidateProviderResponse,
  VerifyEmailRequest,
  VerifyEmailResponse,
} from '@portal/contracts/registration';
import {
  ACCESS_REQUEST_ROUTES,
  userRegistrationRequest,
  UserRegistrationResponse,
} from '@portal/contracts/access-requests';
import { latestDayOnEarth } from '@portal/contracts/fields';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { registerAdministrator } from './account-creation';
import { resendVerification, verifyEmail } from './email-verification';
import { validateAuthority, validateProvider } from './provider-validation';
import { registerEndUser, USER_REGISTRATION_ACTION } from './user-registration';

/** Resend requests per client address and minute (the per-address limit is in the service). */
const RESENDS_PER_MINUTE = 5;

/**
 * The authority step's page shows a failure's `errorMessage` as it is (docs/requirements/portal.md#authority-validation),
 * so this route answers the code's default sentence there instead of the code. Every error of the route passes here,
 * the schema's, the rate limit's and the CSRF check's included.
 */
async function errorCodeAsSentence(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  try {
    const body = JSON.parse(payload) as { errorMessage?: string };
    const sentence = body.errorMessage && errorDefaultMessages[body.errorMessage as ErrorCode];
    if (!sentence) return payload;
    return JSON.stringify({ ...body, errorMessage: sentence });
  } catch {
    return payload;
  }
}

/** Administrator and end-user registration and email verification (docs/requirements/portal.md, docs/decisions/0025). */
export const registrationRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  const perClient = routeRateLimit({
    max: app.config.registration.attemptsPerMinute,
    timeWindow: 60_000,
    key: 'ip',
  });
  // Dates of birth and of service after the latest day anywhere are refused by the schemas, before the service
  // counts an attempt (the app's clock, so tests can move it).
  const today = () => latestDayOnEarth(app.clock());

  app.post(
    REGISTRATION_ROUTES.validateProvider,
    {
      config: {
        audit: { action: 'registration.provider' },
        rateLimit: perClient,
        errors: { 400: ['Provider_Not_Found'], 409: ['Location_Has_Administrator'] },
      },
      schema: { body: ValidateProviderRequest, response: { 200: ValidateProviderResponse } },
    },
    async (request) => {
      const { location, ...token } = await validateProvider(serviceContext(request), request.body);
      return { data: { success: true as const, ...token, ...(request.body.passthroughResponse ? { location } : {}) } };
    },
  );

  app.post(
    REGISTRATION_ROUTES.validateAuthority,
    {
      config: {
        audit: { action: 'registration.authority' },
        rateLimit: perClient,
        errors: {
          400: ['Authority_Not_Verified', 'Validation_Token_Invalid'],
          409: ['Location_Has_Administrator'],
          429: ['Authority_Locked'],
        },
      },
      onSend: errorCodeAsSentence,
      schema: { body: validateAuthorityRequest(today), response: { 200: ValidateAuthorityResponse } },
    },
    async (request) => ({
      data: { success: true, registrationToken: await validateAuthority(serviceContext(request), request.body) },
    }),
  );

  app.post(
    REGISTRATION_ROUTES.selfRegistration,
    {
      config: {
        audit: { action: 'registration.submit' },
        rateLimit: perClient,
        errors: {
          400: ['Registration_Token_Invalid', 'Security_Question_Invalid'],
          409: ['Location_Has_Administrator', 'Username_Taken'],
        },
      },
      schema: { body: selfRegistrationRequest(today), response: { 201: SelfRegistrationResponse } },
    },
    async (request, reply) => {
      await registerAdministrator(serviceContext(request), request.body);
      return reply.code(201).send({ data: { registered: true as const } });
    },
  );

  // The end user's registration (docs/requirements/staff-accounts.md#end-users): account fields and locations.
  app.post(
    ACCESS_REQUEST_ROUTES.userRegistration,
    {
      config: {
        audit: { action: USER_REGISTRATION_ACTION },
        rateLimit: perClient,
        errors: { 400: ['Provider_Not_Found', 'Security_Question_Invalid'], 409: ['Username_Taken'] },
      },
      schema: { body: userRegistrationRequest(today), response: { 201: UserRegistrationResponse } },
    },
    async (request, reply) => {
      await registerEndUser(serviceContext(request), request.body);
      return reply.code(201).send({ data: { registered: true as const } });
    },
  );

  app.post(
    REGISTRATION_ROUTES.verifyEmail,
    {
      config: {
        audit: { action: 'registration.verify-email' },
        rateLimit: perClient,
        errors: { 400: ['Verification_Link_Invalid', 'Email_Already_Verified'] },
      },
      schema: { body: VerifyEmailRequest, response: { 200: VerifyEmailResponse } },
    },
    async (request) => {
      await verifyEmail(serviceContext(request), request.body.token);
      return { data: { verified: true as const } };
    },
  );

  app.post(
    REGISTRATION_ROUTES.resendVerification,
    {
      config: {
        audit: { action: 'registration.verify-email.resend' },
        rateLimit: routeRateLimit({ max: RESENDS_PER_MINUTE, timeWindow: 60_000, key: 'ip' }),
      },
      schema: { body: ResendVerificationRequest, response: { 200: ResendVerificationResponse } },
    },
    async (request) => {
      await resendVerification(serviceContext(request), request.body.email);
      return { data: { accepted: true as const } };
    },
  );
};
