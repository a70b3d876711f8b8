import proxyAddr from '@fastify/proxy-addr';
import {
  OperatorSessionResponse,
  OPS_PAGE_PATHS,
  OPS_ROUTES,
  OpsActionRequest,
  OpsCallbackQuery,
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
  type OperatorRole,
} from '@portal/contracts/ops';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessions } from '../../db/schema';
import { audit, serviceContext } from '../../identity/service-context';
import { sessionCookieOf } from '../../identity/sessions/cookie';
import { hashSessionId } from '../../identity/sessions/store';
import { PortalError } from '../../platform/portal-error';
import { guardErrors } from '../../platform/route-errors';
import {
  finishSignIn,
  locationPage,
  operatorActor,
  operatorOfSession,
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

/**
 * The console's doors (docs/requirements/help-desk.md#sign-in). Every `/ops` page and `/api/ops` route answers 404,
 * as if the console did not exist, when it is off (no OIDC_ISSUER), to an address outside OPS_ALLOWED_ADDRESSES, and
 * to a request carrying a provider session. Every `/api/ops` route declares `config.opsRole` (the server does not
 * start otherwise): `none` for the sign-in steps, else the role it needs, checked before the input is (401 without a
 * console session, 403 without the role).
 */

export const OPS_API_PREFIX = '/api/ops/';
/**
 * The console session's cookie: its own name, set on the console's API and on its pages (the same value on two paths,
 * docs/decisions/0088), so it never reaches a provider route and the server draws a console page signed in.
 */
export const OPS_COOKIE_PATHS = ['/api/ops', OPS_PAGE_PATHS.console] as const;
/** The sign-in's state, nonce and PKCE verifier between its start and the directory's redirect back. */
export const OPS_SIGN_IN_COOKIE_PATH = '/api/ops/auth';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every `/api/ops` route. */
    opsRole?: OperatorRole | 'none';
    /** `false`: serving the route is not activity (reading the session). */
    opsActivity?: false;
  }
  interface FastifyRequest {
    /** Set by the console guard on every `/api/ops` route with a role. */
    operator?: Operator;
  }
}

export function opsCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Secure-ops_session' : 'ops_session';
}
export function opsSignInCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Secure-ops_sign_in' : 'ops_sign_in';
}

export function opsCookieOptions(publicUrl: string, path: string) {
  return { httpOnly: true, secure: publicUrl.startsWith('https:'), sameSite: 'lax' as const, path };
}

export function setOpsCookie(reply: FastifyReply, id: string): void {
  const { publicUrl } = reply.server.config;
  for (const path of OPS_COOKIE_PATHS) reply.setCookie(opsCookieName(publicUrl), id, opsCookieOptions(publicUrl, path));
}

export function clearOpsCookie(reply: FastifyReply): void {
  const { publicUrl } = reply.server.config;
  for (const path of OPS_COOKIE_PATHS) reply.clearCookie(opsCookieName(publicUrl), opsCookieOptions(publicUrl, path));
}

export function opsCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[opsCookieName(request.server.config.publicUrl)] || undefined;
}

/** Whether a path is the console's: its pages or its API. */
export function isConsolePath(path: string): boolean {
  const console = OPS_PAGE_PATHS.console;
  return (
    path === console ||
    path.startsWith(`${console}/`) ||
    path === OPS_API_PREFIX.slice(0, -1) ||
    path.startsWith(OPS_API_PREFIX)
  );
}

/** Whether the request carries a provider session that is still open (any stage). */
async function carriesProviderSession(request: FastifyRequest): Promise<boolean> {
  const id = sessionCookieOf(request);
  if (!id) return false;
  const [row] = await request.server.database.db
    .select({ idHash: sessions.idHash })
    .from(sessions)
    .where(and(eq(sessions.idHash, hashSessionId(id)), gt(sessions.expiresAt, request.server.clock())))
    .limit(1);
  return Boolean(row);
}

function requireOperator(role: OperatorRole): preValidationAsyncHookHandler {
  return guardErrors(
    async function (request, reply) {
      try {
        request.operator = await operatorOfSession(serviceContext(request), opsCookieOf(request), {
          touch: request.routeOptions.config.opsActivity !== false,
        });
      } catch (err) {
        if (err instanceof PortalError && err.status === 401) clearOpsCookie(reply);
        throw err;
      }
      if (!request.operator.roles.includes(role)) throw new PortalError(403, 'Ops_Role_Required');
    } as preValidationAsyncHookHandler,
    { 401: ['Ops_Sign_In_Required', 'Ops_Session_Expired'], 403: ['Ops_Role_Required'] },
  );
}

export const opsGuardPlugin = fp(async (app: FastifyInstance) => {
  const { ops } = app.config;
  const allowed = ops.allowedAddresses ? proxyAddr.compile(ops.allowedAddresses) : null;

  const door = async (request: FastifyRequest) => {
    if (!ops.oidc || (allowed && !allowed(request.ip, 0)) || (await carriesProviderSession(request)))
      throw new PortalError(404, 'Not_Found');
  };
  // The console's pages (served by the web module): the same doors.
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0]!;
    if (isConsolePath(path) && !path.startsWith(OPS_API_PREFIX)) await door(request);
  });

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(OPS_API_PREFIX)) return;
    const role = route.config?.opsRole;
    if (!role) throw new Error(`${route.method} ${route.url} declares no config.opsRole`);
    // After the route's own onRequest hooks (the audit's watch among them), so a refused call is still audited.
    route.onRequest = [...[route.onRequest ?? []].flat(), door];
    if (role === 'none') return;
    route.preValidation = [requireOperator(role), ...[route.preValidation ?? []].flat()];
  });
});

/** The operator the guard established (`opsGuardPlugin` above runs on every route with a role). */
function operatorOf(request: FastifyRequest): Operator {
  if (!request.operator) throw new PortalError(401, 'Ops_Sign_In_Required');
  return request.operator;
}

const ACTION_ERRORS = { 404: ['Not_Found'] } as const;

/**
 * The help desk's console API (docs/requirements/help-desk.md#routes). Every route declares `opsRole`: the guard
 * (`opsGuardPlugin` above) answers 404 to a provider session, an address outside the allow-list or a portal without a directory,
 * then 401/403 without a console session or the role. Every call is audited with the operator (the reads by the
 * declarative audit, identity/route-audit.ts; the actions by their service, with the reason).
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
    {
      config: { opsRole: 'none', answers: { 302: { description: 'To the console, or /ops?signIn=<refusal>' } } },
      schema: { querystring: OpsCallbackQuery },
    },
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

  app.post(
    OPS_ROUTES.keepAlive,
    {
      config: { opsRole: 'help_desk', audit: { action: 'ops.session.keep-alive' } },
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
