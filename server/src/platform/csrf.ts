import type { FastifyInstance } from 'fastify';
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
 * CSRF defence (DESIGN §3, §6): every state-changing /api call must carry `X-Portal-Request: 1` (a header a
 * cross-site form cannot send without a CORS preflight we never grant) and, when the browser names an Origin,
 * it must be our own. Cookies are SameSite=Lax as a further layer.
 */
export const csrfPlugin = fp(async (app: FastifyInstance, options: { allowedOrigins: string[] }) => {
  const allowed = new Set(options.allowedOrigins.map((o) => new URL(o).origin));
  const headerName = PORTAL_REQUEST_HEADER.toLowerCase();
  // A callback hook, not an async one: it runs on every request, and reads need no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/') || request.routeOptions.config?.csrf === false) return done();
    const origin = request.headers.origin;
    const rejected =
      request.headers[headerName] !== PORTAL_REQUEST_HEADER_VALUE ||
      (origin !== undefined && !allowed.has(origin)) ||
      request.headers['sec-fetch-site'] === 'cross-site';
    done(rejected ? new PortalError(403, 'Csrf_Rejected') : undefined);
  });
});
