import { SESSION_ENDED_CODES } from '@portal/contracts/auth';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { PortalError } from '../../platform/portal-error';
import { guardErrors } from '../../platform/route-errors';
import { clearSessionCookie, sessionCookieOf } from './cookie';
import {
  hashSessionId,
  sessionOfCookie,
  touchActiveSession,
  touchSession,
  type ExtraValues,
  type LoadedSession,
  type NoExtras,
  type SessionExtras,
  type SessionLookup,
  type SessionLookupShape,
  type SessionStage,
} from './store';

/** The route guards of sessions: a logged-in user, a login waiting for its second factor, a recent password. */

declare module 'fastify' {
  interface FastifyInstance {
    /** The current time; tests inject a clock to move through idle, absolute and lockout limits. */
    clock: () => Date;
  }
  interface FastifyRequest {
    /** The logged-in session, set by `requireSession` (or the pending one, set by `requirePendingStage`). */
    portalSession?: LoadedSession;
  }
}

/**
 * Reads the session named by the request's cookie; an expired one is deleted. Never extends it. `extras` are read in
 * the same statement (`SessionExtras`).
 */
export function lookupSession<E extends SessionExtras = NoExtras>(
  request: FastifyRequest,
  shape?: SessionLookupShape<E>,
): Promise<SessionLookup<ExtraValues<E>>> {
  return sessionOfCookie(
    { db: request.server.database.db, now: request.server.clock, config: request.server.config },
    sessionCookieOf(request),
    shape,
  );
}

/**
 * preHandler for every route that needs a logged-in user: 401 `Not_Logged_In` without a session (or with one still
 * waiting for its second factor), 401 `Session_Expired` past the idle or absolute limit. A served request is
 * activity: it restarts the idle timer.
 */
export const requireSession: preHandlerAsyncHookHandler = guardErrors(
  async function (request, reply) {
    const { db } = request.server.database;
    const now = request.server.clock();
    const id = sessionCookieOf(request);
    // The usual case in one round trip: a logged-in session within its limits, of an open account, touched.
    const touched = id
      ? await touchActiveSession(db, hashSessionId(id), now, request.server.config.sessions)
      : undefined;
    if (touched) {
      request.portalSession = touched;
      return;
    }
    // Anything else (no cookie, expired, another stage, the account locked since) is told apart by the lookup.
    const lookup = await lookupSession(request);
    if (lookup.status === 'expired') {
      clearSessionCookie(reply);
      throw new PortalError(401, lookup.endedBecause ?? 'Session_Expired');
    }
    if (lookup.status === 'none' || lookup.session.stage !== 'active') throw new PortalError(401, 'Not_Logged_In');
    await touchSession(db, lookup.session.idHash, now);
    request.portalSession = { ...lookup.session, lastSeenAt: now };
  } as preHandlerAsyncHookHandler,
  { 401: ['Not_Logged_In', 'Session_Expired', ...SESSION_ENDED_CODES] },
);

/**
 * The session waiting for its second factor (`stage`): the MFA steps of a login. 401 `Session_Expired` past a limit,
 * 401 `Mfa_Not_Pending` without one or at another stage.
 */
export async function requirePendingSession(
  request: FastifyRequest,
  reply: FastifyReply,
  stage: Exclude<SessionStage, 'active'>,
): Promise<LoadedSession> {
  const lookup = await lookupSession(request);
  if (lookup.status === 'expired') {
    clearSessionCookie(reply);
    throw new PortalError(401, lookup.endedBecause ?? 'Session_Expired');
  }
  if (lookup.status === 'none' || lookup.session.stage !== stage) throw new PortalError(401, 'Mfa_Not_Pending');
  return lookup.session;
}

/**
 * Hook form of `requirePendingSession` (run it as `preValidation`, so a caller without the session gets 401 before its
 * input is checked): sets `request.portalSession` to the pending session.
 */
export function requirePendingStage(stage: Exclude<SessionStage, 'active'>): preHandlerAsyncHookHandler {
  return guardErrors(
    async function (request, reply) {
      request.portalSession = await requirePendingSession(request, reply, stage);
    } as preHandlerAsyncHookHandler,
    { 401: ['Mfa_Not_Pending', 'Session_Expired', ...SESSION_ENDED_CODES] },
  );
}

/** Seconds left in the re-authentication window of a logged-in session (0 = the password must be given again). */
export function recentAuthenticationSecondsLeft(
  session: Pick<LoadedSession, 'authenticatedAt'>,
  now: Date,
  windowMs: number,
): number {
  if (!session.authenticatedAt) return 0;
  return Math.max(0, Math.floor((session.authenticatedAt.getTime() + windowMs - now.getTime()) / 1000));
}

/**
 * preHandler after `requireSession` for changes to the account's credentials and contact details (password, second
 * factors, email, phone, security answers): the login (or the last re-authentication) must be younger than the
 * re-authentication window, else 403 `Reauthentication_Required` (docs/requirements/session.md#re-authentication).
 * 403, not 401: the session is still valid, and the browser asks for the password instead of ending it.
 */
export const requireRecentAuthentication: preHandlerAsyncHookHandler = guardErrors(
  async function (request) {
    const session = request.portalSession;
    if (!session) throw new PortalError(401, 'Not_Logged_In');
    const windowMs = request.server.config.login.reauthenticationWindowMs;
    const age = session.authenticatedAt
      ? request.server.clock().getTime() - session.authenticatedAt.getTime()
      : Infinity;
    if (!(age < windowMs)) throw new PortalError(403, 'Reauthentication_Required');
  } as preHandlerAsyncHookHandler,
  { 401: ['Not_Logged_In'], 403: ['Reauthentication_Required'] },
);
