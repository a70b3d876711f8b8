import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { PORTAL_REQUEST_HEADER, PORTAL_REQUEST_HEADER_VALUE } from '@portal/contracts/http';
import { PortalError } from './portal-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Server-to-server routes (the CMS webhook) authenticate otherwise and opt out of the browser CSRF check. */
    csrf?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence (docs/requirements/api.md#csrf-header): every state-changing route, whatever its path, requires `X-Portal-Request: 1` (a header a
 * cross-site form cannot send without a CORS preflight we never grant) and, when the browser names an Origin,
 * our own; a cross-site Sec-Fetch-Site is refused too. Cookies are SameSite=Lax as a further layer.
 * The check is attached to those routes when they are declared, so reads pay nothing for it.
 */
export const csrfPlugin = fp(async (app: FastifyInstance, options: { allowedOrigins: string[] }) => {
  const allowed = new Set(options.allowedOrigins.map((o) => new URL(o).origin));
  const headerName = PORTAL_REQUEST_HEADER.toLowerCase();
  const checkCsrf: onRequestHookHandler = (request, _reply, done) => {
    const origin = request.headers.origin;
    const rejected =
      request.headers[headerName] !== PORTAL_REQUEST_HEADER_VALUE ||
      (origin !== undefined && !allowed.has(origin)) ||
      request.headers['sec-fetch-site'] === 'cross-site';
    done(rejected ? new PortalError(403, 'Csrf_Rejected') : undefined);
  };
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.config?.csrf === false || methods.every((m) => SAFE_METHODS.has(m))) return;
    route.onRequest = [checkCsrf, ...[route.onRequest ?? []].flat()];
  });
});
