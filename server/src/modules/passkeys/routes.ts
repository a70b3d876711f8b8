import {
  ACCOUNT_ROUTES,
  PasskeyListResponse,
  PasskeyLoginOptionsResponse,
  PasskeyLoginRequest,
  PasskeyLoginResponse,
  PasskeyRegistrationOptionsResponse,
  PasskeyRegistrationRequest,
  PasskeyRegistrationResponse,
  PasskeyRemoveResponse,
  PasskeyRenameRequest,
  PasskeyRenameResponse,
} from '@portal/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { serviceContext } from '../../identity/service-context';
import { requirePendingStage, requireRecentAuthentication, requireSession } from '../../identity/sessions/guards';
import {
  listPasskeys,
  loginOptions,
  loginWithPasskey,
  registerPasskey,
  registrationOptions,
  removePasskey,
  renamePasskey,
} from './service';

const PasskeyParams = z.object({ id: z.uuid() });

/**
 * Passkeys on My account (list, add, rename, remove) and as the login's second factor
 * (docs/requirements/session.md#passkeys, docs/decisions/0023). Adding and removing need a recent login.
 */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  // Verifications are throttled per client like the login: each one is a guess at a second factor.
  const perClient = routeRateLimit({ max: app.config.login.attemptsPerMinute, timeWindow: 60_000, key: 'ip' });
  const recent = [requireSession, requireRecentAuthentication];
  const pendingMfa = requirePendingStage('mfa');

  app.get(
    ACCOUNT_ROUTES.passkeys,
    { preValidation: requireSession, schema: { response: { 200: PasskeyListResponse } } },
    async (request) => ({
      data: { passkeys: await listPasskeys(app.database.db, request.portalSession!.userId) },
    }),
  );

  app.post(
    ACCOUNT_ROUTES.passkeyRegistrationOptions,
    {
      config: { audit: { action: 'passkey.registration-options' }, errors: { 400: ['Passkey_Limit_Reached'] } },
      preValidation: recent,
      schema: { response: { 200: PasskeyRegistrationOptionsResponse } },
    },
    async (request) => ({ data: await registrationOptions(serviceContext(request), request.portalSession!) }),
  );

  app.post(
    ACCOUNT_ROUTES.passkeyRegistration,
    {
      preValidation: recent,
      config: {
        audit: { action: 'passkey.added' },
        rateLimit: perClient,
        errors: { 400: ['Passkey_Limit_Reached', 'Passkey_Verification_Failed'] },
      },
      schema: { body: PasskeyRegistrationRequest, response: { 200: PasskeyRegistrationResponse } },
    },
    async (request) => ({
      data: {
        passkey: await registerPasskey(
          serviceContext(request),
          request.portalSession!,
          request.body.name,
          request.body.credential,
        ),
      },
    }),
  );

  app.post(
    ACCOUNT_ROUTES.passkeyRename,
    {
      config: { audit: { action: 'passkey.renamed' }, errors: { 404: ['Passkey_Not_Found'] } },
      preValidation: requireSession,
      schema: { params: PasskeyParams, body: PasskeyRenameRequest, response: { 200: PasskeyRenameResponse } },
    },
    async (request) => ({
      data: {
        passkey: await renamePasskey(
          serviceContext(request),
          request.portalSession!.userId,
          request.params.id,
          request.body.name,
        ),
      },
    }),
  );

  app.post(
    ACCOUNT_ROUTES.passkeyRemove,
    {
      config: { audit: { action: 'passkey.removed' }, errors: { 404: ['Passkey_Not_Found'] } },
      preValidation: recent,
      schema: { params: PasskeyParams, response: { 200: PasskeyRemoveResponse } },
    },
    async (request) => {
      await removePasskey(serviceContext(request), request.portalSession!, request.params.id);
      return { data: { removed: true as const } };
    },
  );

  app.post(
    ACCOUNT_ROUTES.passkeyLoginOptions,
    {
      preValidation: pendingMfa,
      config: {
        audit: { action: 'login.passkey-options' },
        rateLimit: perClient,
        errors: { 400: ['Passkey_None_Registered'] },
      },
      schema: { response: { 200: PasskeyLoginOptionsResponse } },
    },
    async (request) => ({ data: await loginOptions(serviceContext(request), request.portalSession!) }),
  );

  app.post(
    ACCOUNT_ROUTES.passkeyLogin,
    {
      preValidation: pendingMfa,
      config: {
        audit: { action: 'login.mfa' },
        rateLimit: perClient,
        errors: { 401: ['Passkey_Verification_Failed'] },
      },
      schema: { body: PasskeyLoginRequest, response: { 200: PasskeyLoginResponse } },
    },
    async (request, reply) => ({
      data: await loginWithPasskey(serviceContext(request, reply), request.portalSession!, request.body.credential),
    }),
  );
};
