import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { recordAudit, type AuditEvent } from '../platform/audit';
import type { DbExecutor } from '../platform/db-executor';
import type { PasswordHasher } from '../platform/password-hashing';
import type { Secrets } from '../platform/secrets';
import type { SecurityQuestionKeys } from './security-questions';
import { sessionCookieOf, setSessionCookie } from './sessions/cookie';

/** Who is asking, read once by the route from the HTTP request: what audit events and per-client limits need. */
export interface ClientInfo {
  /** The client's address (behind a trusted proxy, the forwarded one). */
  ip: string;
  /** The request id, kept in audit events so a log line and an event can be matched. */
  requestId: string;
  /** The browser's User-Agent (sessions show it on My account), empty when absent. */
  userAgent: string;
}

/**
 * Everything a service needs, as plain values (docs/architecture.md#server-modules): a service takes this and its
 * parsed input, never a FastifyRequest, so a flow runs and is tested without HTTP. Routes build it with
 * `serviceContext(request)`; a test builds it with `contextOf(app, client)` or by hand.
 */
export interface ServiceContext {
  db: Db;
  /** The app's clock (tests move it). */
  now: () => Date;
  config: Config;
  secrets: Secrets;
  hasher: PasswordHasher;
  /** Wakes a job at once, e.g. `jobs.kick(OUTBOX_JOB)` after a transaction that queued email. */
  jobs: { kick(name: string): void };
  /** The keys of the CMS's security-question list. */
  securityQuestionKeys: SecurityQuestionKeys;
  log: FastifyBaseLogger;
  client: ClientInfo;
  /**
   * The session cookie: the id the request came with, and where a flow hands a new one (a login step, a password
   * change) for the answer to carry. A port, so a test passes `{ cookie: undefined, issue: (id) => … }`.
   */
  session: SessionCookiePort;
}

export interface SessionCookiePort {
  /** The session id of the request's cookie, if any. */
  cookie: string | undefined;
  /** Sets the session cookie of the answer to this new id. */
  issue(id: string): void;
}

/** A session port for a context with no HTTP answer (tests, jobs): it keeps the last issued id. */
export function detachedSession(cookie?: string): SessionCookiePort & { issued?: string } {
  const port: SessionCookiePort & { issued?: string } = {
    cookie,
    issue: (id) => {
      port.issued = id;
      port.cookie = id;
    },
  };
  return port;
}

/** The context of the app's shared parts for a given client (tests and jobs call services with it). */
export function contextOf(
  app: FastifyInstance,
  client: ClientInfo,
  session: SessionCookiePort = detachedSession(),
  log: FastifyBaseLogger = app.log,
): ServiceContext {
  return {
    db: app.database.db,
    now: app.clock,
    config: app.config,
    secrets: app.secrets,
    hasher: app.passwordHasher,
    jobs: app.jobs,
    securityQuestionKeys: app.securityQuestionKeys,
    log,
    client,
    session,
  };
}

/** The client of an HTTP request. */
export function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, requestId: request.id, userAgent: request.headers['user-agent'] ?? '' };
}

/**
 * The service context of one HTTP request: the only place a route turns the request into plain values. Give the reply
 * when the flow may issue a session cookie.
 */
export function serviceContext(request: FastifyRequest, reply?: FastifyReply): ServiceContext {
  const session = detachedSession(sessionCookieOf(request));
  if (reply)
    session.issue = (id) => {
      session.cookie = id;
      setSessionCookie(reply, id);
    };
  return contextOf(request.server, clientOf(request), session, request.log);
}

/**
 * Writes an audit event stamped with the acting client's address and request id, in `db` (pass the transaction so
 * the event exists only if the change commits). The one audit wrapper services use.
 */
export function audit(
  ctx: Pick<ServiceContext, 'client'>,
  db: DbExecutor,
  event: Omit<AuditEvent, 'ip' | 'requestId'>,
): Promise<void> {
  return recordAudit(db, { ...event, ip: ctx.client.ip, requestId: ctx.client.requestId });
}
