import {
  OperatorSessionResponse,
  OPS_ROUTES,
  OpsActionRequest,
  OpsLocationParams,
  OpsLocationResponse,
  OpsPersonActionResponse,
  OpsPersonParams,
  OpsPersonResponse,
  OpsResetMfaRequest,
  OpsRestoreAdministratorRequest,
  OpsRestoreAdministratorResponse,
  OpsRevealRequest,
  OpsRevealResponse,
  OpsSearchQuery,
  OpsSearchResponse,
  OpsSignInQuery,
  OpsSignOutResponse,
} from '@portal/contracts/ops';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PortalError } from '../../platform/portal-error';
import { audit, serviceContext } from '../../platform/service-context';
import { clearOpsCookie, opsCookieOptions, opsSignInCookieName, OPS_SIGN_IN_COOKIE_PATH, setOpsCookie } from './guard';
import {
  finishSignIn,
  locationPage,
  operatorActor,
  operatorSessionView,
  opsDisable,
  opsEnable,
  opsEndSessions,
  opsResendVerification,
  opsResetMfa,
  opsUnlock,
  personPage,
  restoreAdministrator,
  revealField,
  searchPeople,
  signOut,
  SIGN_IN_TTL_MS,
  startSignIn,
  type Operator,
} from './service';

/** The operator the guard established (it runs on every route with a role: ./guard.ts). */
function operatorOf(request: FastifyRequest): Operator {
  if (!request.operator) throw new PortalError(401, 'Ops_Sign_In_Required');
  return request.operator;
}

const ACTION_ERRORS = { 404: ['Not_Found'] } as const;

/**
 * The help desk's console API (docs/requirements/help-desk.md#routes). Every route declares `opsRole`: the guard
 * (./guard.ts) answers 404 to a provider session, an address outside the allow-list or a portal without a directory,
 * then 401/403 without a console session or the role. Every call is audited with the operator (the reads by the
 * declarative audit, platform/route-audit.ts; the actions by their service, with the reason).
 */
export const opsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { publicUrl } = app.config;
  const signInCookie = opsSignInCookieName(publicUrl);

  // ——— Sign-in ———
  app.get(
    OPS_ROUTES.signIn,
    {
      config: { opsRole: 'none', answers: { 302: { description: "To the directory's sign-in page" } } },
      schema: { querystring: OpsSignInQuery },
    },
    async (request, reply) => {
      const { url, cookie } = await startSignIn(serviceContext(request), request.query.returnTo);
      reply.setCookie(signInCookie, cookie, {
        ...opsCookieOptions(publicUrl, OPS_SIGN_IN_COOKIE_PATH),
        maxAge: SIGN_IN_TTL_MS / 1000,
      });
      return reply.redirect(url, 302);
    },
  );

  app.get(
    OPS_ROUTES.callback,
    { config: { opsRole: 'none', answers: { 302: { description: 'To the console, or /ops?signIn=<refusal>' } } } },
    async (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const { location, sessionId } = await finishSignIn(serviceContext(request), request.cookies[signInCookie], query);
      reply.clearCookie(signInCookie, opsCookieOptions(publicUrl, OPS_SIGN_IN_COOKIE_PATH));
      if (sessionId) setOpsCookie(reply, sessionId);
      return reply.redirect(location, 302);
    },
  );

  app.post(
    OPS_ROUTES.signOut,
    {
      config: { opsRole: 'help_desk', opsActivity: false, audit: { action: 'ops.sign-out' } },
      schema: { response: { 200: OpsSignOutResponse } },
    },
    async (request, reply) => {
      const operator = operatorOf(request);
      const endSessionUrl = await signOut(serviceContext(request), operator.sessionIdHash, operator.operatorId);
      clearOpsCookie(reply);
      return { data: { endSessionUrl } };
    },
  );

  app.get(
    OPS_ROUTES.session,
    {
      config: { opsRole: 'help_desk', opsActivity: false, audit: { action: 'ops.session' } },
      schema: { response: { 200: OperatorSessionResponse } },
    },
    async (request) => ({ data: operatorSessionView(serviceContext(request), operatorOf(request)) }),
  );

  // ——— Find and read ———
  app.get(
    OPS_ROUTES.search,
    {
      config: { opsRole: 'help_desk', audit: { action: 'ops.search' } },
      schema: { querystring: OpsSearchQuery, response: { 200: OpsSearchResponse } },
    },
    async (request) => ({ data: await searchPeople(serviceContext(request), request.query.q) }),
  );

  app.get(
    OPS_ROUTES.person,
    {
      config: { opsRole: 'help_desk', audit: { action: 'ops.person.view' }, errors: ACTION_ERRORS },
      schema: { params: OpsPersonParams, response: { 200: OpsPersonResponse } },
    },
    async (request) => ({ data: await personPage(serviceContext(request), request.params.userId) }),
  );

  app.post(
    OPS_ROUTES.revealPerson,
    {
      config: { opsRole: 'help_desk', audit: { action: 'ops.person.reveal' }, errors: ACTION_ERRORS },
      schema: { params: OpsPersonParams, body: OpsRevealRequest, response: { 200: OpsRevealResponse } },
    },
    async (request) => {
      const ctx = serviceContext(request);
      const { field } = request.body;
      const value = await revealField(ctx, request.params.userId, field);
      await audit(ctx, ctx.db, {
        actor: operatorActor(operatorOf(request).operatorId),
        action: 'ops.person.reveal',
        target: request.params.userId,
        outcome: 'success',
        details: { revealed: field },
      });
      return { data: { field, value } };
    },
  );

  app.get(
    OPS_ROUTES.location,
    {
      config: { opsRole: 'help_desk', audit: { action: 'ops.location.view' }, errors: ACTION_ERRORS },
      schema: { params: OpsLocationParams, response: { 200: OpsLocationResponse } },
    },
    async (request) => ({ data: await locationPage(serviceContext(request), request.params.locationId) }),
  );

  // ——— Actions on a person ———
  const personActions = [
    [OPS_ROUTES.unlockPerson, 'help_desk', 'ops.person.unlock', opsUnlock, {}],
    [OPS_ROUTES.endSessions, 'help_desk', 'ops.person.end-sessions', opsEndSessions, {}],
    [
      OPS_ROUTES.resendVerification,
      'help_desk',
      'ops.person.resend-verification',
      opsResendVerification,
      { 400: ['Ops_Not_Unverified'] },
    ],
    [OPS_ROUTES.disablePerson, 'supervisor', 'ops.person.disable', opsDisable, { 409: ['Last_Administrator'] }],
    [OPS_ROUTES.enablePerson, 'supervisor', 'ops.person.enable', opsEnable, {}],
  ] as const;
  for (const [path, role, action, run, errors] of personActions)
    app.post(
      path,
      {
        config: { opsRole: role, audit: { action }, errors: { ...ACTION_ERRORS, ...errors } },
        schema: { params: OpsPersonParams, body: OpsActionRequest, response: { 200: OpsPersonActionResponse } },
      },
      async (request) => ({
        data: await run(serviceContext(request), operatorOf(request), request.params.userId, request.body.reason),
      }),
    );

  app.post(
    OPS_ROUTES.resetMfa,
    {
      config: { opsRole: 'help_desk', audit: { action: 'ops.person.reset-mfa' }, errors: ACTION_ERRORS },
      schema: { params: OpsPersonParams, body: OpsResetMfaRequest, response: { 200: OpsPersonActionResponse } },
    },
    async (request) => ({
      data: await opsResetMfa(
        serviceContext(request),
        operatorOf(request),
        request.params.userId,
        request.body.reason,
        request.body.identityChecks,
      ),
    }),
  );

  app.post(
    OPS_ROUTES.restoreAdministrator,
    {
      config: {
        opsRole: 'supervisor',
        audit: { action: 'ops.location.restore-administrator' },
        errors: {
          400: ['Ops_Restore_Person_Invalid'],
          404: ['Not_Found'],
          409: ['Ops_Location_Has_Administrator', 'Admin_Limit_Reached'],
        },
      },
      schema: {
        params: OpsLocationParams,
        body: OpsRestoreAdministratorRequest,
        response: { 200: OpsRestoreAdministratorResponse },
      },
    },
    async (request) => ({
      data: await restoreAdministrator(
        serviceContext(request),
        operatorOf(request),
        request.params.locationId,
        request.body.userId,
        request.body.reason,
      ),
    }),
  );
};
