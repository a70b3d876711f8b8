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
import { PortalError } from '../../platform/portal-error';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { requirePendingStage, requireRecentAuthentication, requireSession } from '../../platform/session';
// The auth module's declared service: a passkey completes the login exactly like a TOTP code.
import { checkSecondFactor, completeSecondFactor } from '../auth/service';
import {
  listPasskeys,
  loginOptions,
  registerPasskey,
  registrationOptions,
  removePasskey,
  renamePasskey,
  verifyLoginAssertion,
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
    async (request) => ({ data: await registrationOptions(request, request.portalSession!) }),
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
        passkey: await registerPasskey(request, request.portalSession!, request.body.name, request.body.credential),
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
        passkey: await renamePasskey(request, request.portalSession!.userId, request.params.id, request.body.name),
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
      await removePasskey(request, request.portalSession!, request.params.id);
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
    async (request) => ({ data: await loginOptions(request, request.portalSession!) }),
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
    async (request, reply) => {
      const session = request.portalSession!;
      const check = () => verifyLoginAssertion(request, session, request.body.credential);
      if (!(await checkSecondFactor(request, session, 'passkey', check))) {
        // Counted against the pending login and the account like a wrong code, and 401 like one: no login yet.
        throw new PortalError(401, 'Passkey_Verification_Failed');
      }
      return { data: await completeSecondFactor(request, reply, session, 'passkey') };
    },
  );
};
