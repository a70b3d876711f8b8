import proxyAddr from '@fastify/proxy-addr';
import { OPS_PAGE_PATHS, type OperatorRole } from '@portal/contracts/ops';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { sessions } from '../../db/schema';
import { PortalError } from '../../platform/portal-error';
import { guardErrors } from '../../platform/route-errors';
import { serviceContext } from '../../platform/service-context';
import { hashSessionId, sessionCookieOf } from '../../platform/session';
import { operatorOfSession, type Operator } from './session';

/**
 * The console's doors (docs/requirements/help-desk.md#sign-in). Every `/ops` page and `/api/ops` route answers 404,
 * as if the console did not exist, when it is off (no OIDC_ISSUER), to an address outside OPS_ALLOWED_ADDRESSES, and
 * to a request carrying a provider session. Every `/api/ops` route declares `config.opsRole` (the server does not
 * start otherwise): `none` for the sign-in steps, else the role it needs, checked before the input is (401 without a
 * console session, 403 without the role).
 */

export const OPS_API_PREFIX = '/api/ops/';
/** The console session's cookie: its own name and path, so it never reaches a provider route. */
export const OPS_COOKIE_PATH = '/api/ops';
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
  reply.setCookie(opsCookieName(publicUrl), id, opsCookieOptions(publicUrl, OPS_COOKIE_PATH));
}

export function clearOpsCookie(reply: FastifyReply): void {
  const { publicUrl } = reply.server.config;
  reply.clearCookie(opsCookieName(publicUrl), opsCookieOptions(publicUrl, OPS_COOKIE_PATH));
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

  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0]!;
    if (!isConsolePath(path)) return;
    if (!ops.oidc || (allowed && !allowed(request.ip, 0)) || (await carriesProviderSession(request)))
      throw new PortalError(404, 'Not_Found');
  });

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(OPS_API_PREFIX)) return;
    const role = route.config?.opsRole;
    if (!role) throw new Error(`${route.method} ${route.url} declares no config.opsRole`);
    if (role === 'none') return;
    route.preValidation = [requireOperator(role), ...[route.preValidation ?? []].flat()];
  });
});
