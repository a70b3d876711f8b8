import cookie from '@fastify/cookie';
import { SESSION_COOKIE, SESSION_COOKIE_SECURE } from '@portal/contracts/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The session cookie (docs/requirements/session.md#server-sessions): its name, its attributes, reading and setting it.
 * The session it names lives in the store (`store.ts`).
 */

/** Over HTTPS the cookie takes the `__Host-` prefix and `Secure`; plain HTTP (a laptop, tests) can carry neither. */
export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? SESSION_COOKIE_SECURE : SESSION_COOKIE;
}

function cookieOptions(publicUrl: string) {
  // No Domain and Path=/ (required by __Host-); no Max-Age: the server enforces the limits, the cookie ends with the browser.
  return { httpOnly: true, secure: publicUrl.startsWith('https:'), sameSite: 'lax' as const, path: '/' };
}

export function setSessionCookie(reply: FastifyReply, id: string): void {
  const publicUrl = reply.server.config.publicUrl;
  reply.setCookie(sessionCookieName(publicUrl), id, cookieOptions(publicUrl));
}

export function clearSessionCookie(reply: FastifyReply): void {
  const publicUrl = reply.server.config.publicUrl;
  reply.clearCookie(sessionCookieName(publicUrl), cookieOptions(publicUrl));
}

export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookieName(request.server.config.publicUrl)] || undefined;
}

/** Cookie parsing for the whole app (the session cookie is the only one the server reads). */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(cookie);
});
