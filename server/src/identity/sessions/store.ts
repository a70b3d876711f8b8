import { createHash, randomBytes } from 'node:crypto';
import type { SessionEndedCode, SessionState } from '@portal/contracts/auth';
import { and, eq, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { auditEvents, sessions, users } from '../../db/schema';
import { auditRow, auditWritten, type AuditEvent } from '../../platform/audit';
import { preparedStatement, rowsOf, type DbExecutor } from '../../platform/db-executor';
import type { Job } from '../../platform/jobs';
import { deleteBatch, retentionJob } from '../../platform/retention';
import { revokeOutstandingTokens, type TokenRevocationReason } from '../one-time-tokens';
import type { ServiceContext } from '../service-context';

/**
 * Server-side sessions in PostgreSQL (docs/requirements/session.md#server-sessions, docs/decisions/0020): the browser
 * holds a random id, the table only its SHA-256, so any instance serves any session and a leaked table logs no one in.
 */

export type SessionStage = (typeof sessions.$inferSelect)['stage'];

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

/** A session read from the cookie, with the user fields the routes need. */
export interface LoadedSession {
  idHash: string;
  userId: string;
  stage: SessionStage;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  authenticatedAt: Date | null;
  pendingTotpSecretEncrypted: string | null;
  mfaFailures: number;
  username: string;
  firstName: string;
  lastName: string;
}

/** 32 random bytes (256 bits) from the CSPRNG, base64url: the cookie value. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export interface NewSession {
  userId: string;
  stage: SessionStage;
  now: Date;
  limits: SessionLimits;
  ip?: string;
  userAgent?: string;
  /** Kept from the session being replaced, so rotating never extends the absolute limit. */
  createdAt?: Date;
  expiresAt?: Date;
  authenticatedAt?: Date | null;
}

/** Inserts a session and answers its id (for the cookie; never stored). */
export async function createSession(db: DbExecutor, session: NewSession): Promise<string> {
  const id = newSessionId();
  await db.insert(sessions).values({
    idHash: hashSessionId(id),
    userId: session.userId,
    stage: session.stage,
    createdAt: session.createdAt ?? session.now,
    lastSeenAt: session.now,
    expiresAt: session.expiresAt ?? new Date(session.now.getTime() + session.limits.absoluteMs),
    authenticatedAt: session.authenticatedAt ?? null,
    ip: session.ip?.slice(0, 45),
    userAgent: session.userAgent?.slice(0, 512),
  });
  return id;
}

export async function destroySession(db: DbExecutor, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/**
 * Ends every session of a user (password change or reset, second-factor change, sign out everywhere else, account
 * lock), optionally sparing the caller's own ("sign out everywhere else"). Every outstanding one-time token of the
 * user stops working with them (docs/requirements/session.md#credential-changes): this is the one place that rule
 * lives, so each flow that ends sessions for a credential change cancels a pending email change or an old reset link
 * too. Answers how many sessions ended.
 */
export async function endAllSessions(
  db: DbExecutor,
  userId: string,
  options: { exceptIdHash?: string; reason?: TokenRevocationReason } = {},
): Promise<number> {
  const condition = options.exceptIdHash
    ? and(eq(sessions.userId, userId), ne(sessions.idHash, options.exceptIdHash))
    : eq(sessions.userId, userId);
  const ended = await db.delete(sessions).where(condition).returning({ idHash: sessions.idHash });
  const reason = options.reason ?? 'credential_change';
  // Ended by someone else (an administrator, the lockout): each session's holder is told why at its next request.
  if (endedCodeOf[reason] && ended.length)
    await db.insert(auditEvents).values(
      ended.map(({ idHash }) =>
        auditRow({
          actor: 'system',
          action: SESSION_ENDED_ACTION,
          target: sessionTarget(idHash),
          outcome: 'success',
          details: { reason },
        }),
      ),
    );
  await revokeOutstandingTokens(db, userId, { reason });
  return ended.length;
}

/**
 * The account may be tried: active and not locked at `now`. Every statement that records a verdict (a failure
 * counted, a lock, a session created, a second factor accepted) carries this condition, so a verdict and the lock
 * it depends on are one atomic step, whatever the order in which parallel attempts finish their hashing. A session
 * of an account no longer open ends at its next request (`sessionOfCookie`, `requireSession`).
 */
export function openAt(now: Date | SQL) {
  const at = now instanceof Date ? sql`${now.toISOString()}::timestamptz` : now;
  return sql`(${users.status} = 'active' and (${users.lockedUntil} is null or ${users.lockedUntil} <= ${at}))`;
}

/**
 * The app's clock in a prepared statement (`preparedStatement`): a placeholder filled with `nowValue(ctx.now())` at
 * each run, never the time the statement was built.
 */
export const NOW: SQL = sql`${sql.placeholder('now')}::timestamptz`;
export const nowValue = (now: Date) => now.toISOString();

/**
 * Values a caller reads with the session in the lookup's own statement (no second round trip on the hot
 * `GET /api/session`): SQL expressions over the session's user id column, by name.
 */
export type SessionExtras = Record<string, SQL<unknown>>;

/**
 * A session lookup reading `extras` too, as one prepared statement named `name` (`preparedStatement`; one name per
 * shape, declared once at module level). `extras` gets the session's user id column and the clock as SQL (`NOW`).
 */
export interface SessionLookupShape<E extends SessionExtras> {
  name: string;
  extras: (db: DbExecutor, userId: typeof sessions.userId, now: SQL) => E;
}
export type ExtraValues<E extends SessionExtras> = { [K in keyof E]: E[K] extends SQL<infer T> ? T : never };
export type NoExtras = Record<never, never>;

export type SessionLookup<X = NoExtras> =
  | { status: 'none' }
  | { status: 'expired'; endedBecause?: SessionEndedCode }
  | { status: 'valid'; session: LoadedSession; extras: X };

/**
 * Why a session ended, when someone other than its holder ended it (docs/requirements/session.md#forced-logout): the
 * 401 of its next request carries this code (`SessionEndedCode`) instead of `Session_Expired`, and the login page
 * says it.
 */
const endedCodeOf: Partial<Record<TokenRevocationReason, SessionEndedCode>> = {
  account_disabled: 'Session_Ended_Account_Disabled',
  mfa_reset: 'Session_Ended_Mfa_Reset',
  account_locked: 'Session_Ended_Account_Locked',
};
/** The audit action that records a session ended by someone else, with its reason; read back by `sessionOfCookie`. */
const SESSION_ENDED_ACTION = 'session.ended';

/**
 * The audit target naming one session: its id's hash, shaped as a UUID (so the log's masking leaves it as it is). Only
 * whoever holds the cookie can compute it.
 */
function sessionTarget(idHash: string): string {
  const h = idHash.slice(0, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** How long the reason of a session ended by someone else can be read back (its holder's next visit). */
const ENDED_REASON_KEPT_MS = 7 * 86_400_000;

async function endedBecause(db: DbExecutor, idHash: string, now: Date): Promise<SessionEndedCode | undefined> {
  const since = new Date(now.getTime() - ENDED_REASON_KEPT_MS).toISOString();
  const [row] = await db
    .select({ details: auditEvents.details })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.target, sessionTarget(idHash)),
        eq(auditEvents.action, SESSION_ENDED_ACTION),
        sql`${auditEvents.at} > ${since}::timestamptz`,
      ),
    )
    .orderBy(sql`${auditEvents.at} desc`)
    .limit(1);
  const reason = row?.details?.reason as TokenRevocationReason | undefined;
  return reason ? endedCodeOf[reason] : undefined;
}

/** Past the idle or the absolute limit at `now`. */
export function isExpired(
  session: Pick<LoadedSession, 'lastSeenAt' | 'expiresAt'>,
  now: Date,
  limits: SessionLimits,
): boolean {
  return now.getTime() >= session.expiresAt.getTime() || now.getTime() - session.lastSeenAt.getTime() >= limits.idleMs;
}

/** The session's own fields and its account's, as every session lookup reads them. */
const sessionFields = {
  idHash: sessions.idHash,
  userId: sessions.userId,
  stage: sessions.stage,
  createdAt: sessions.createdAt,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
  authenticatedAt: sessions.authenticatedAt,
  pendingTotpSecretEncrypted: sessions.pendingTotpSecretEncrypted,
  mfaFailures: sessions.mfaFailures,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
};

/**
 * The lookup statement of `shape`, prepared once per database handle: it runs on every request with a session, and
 * building it (drizzle) and planning it (PostgreSQL, 1.3 ms with the staff flags' subqueries) on each run cost more
 * than running it (docs/decisions/0062).
 */
function lookupStatement(db: DbExecutor, shape?: SessionLookupShape<SessionExtras>) {
  return preparedStatement(db, shape?.name ?? 'session_lookup', (name) =>
    db
      .select({
        ...sessionFields,
        userStatus: users.status,
        lockedUntil: users.lockedUntil,
        ...shape?.extras(db, sessions.userId, NOW),
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.idHash, sql.placeholder('idHash')))
      .prepare(name),
  );
}

/**
 * The session a cookie value names (none without one); an expired one, or one of an account locked or disabled since,
 * is deleted. Never extends it. `lookupSession` for a request; a flow run without HTTP (a test, a job) calls this.
 */
export async function sessionOfCookie<E extends SessionExtras = NoExtras>(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>,
  id: string | undefined,
  shape?: SessionLookupShape<E>,
): Promise<SessionLookup<ExtraValues<E>>> {
  if (!id) return { status: 'none' };
  const { db } = ctx;
  const idHash = hashSessionId(id);
  const now = ctx.now();
  const [row] = await lookupStatement(db, shape).execute({ idHash, now: nowValue(now) });
  // A cookie naming no row was ended (logout, endAllSessions, expiry cleaned up, the account deleted): to the user it
  // has expired, or ended by someone else for a reason they are told.
  if (!row) {
    const reason = await endedBecause(db, idHash, now);
    return reason ? { status: 'expired', endedBecause: reason } : { status: 'expired' };
  }
  const { userStatus, lockedUntil, ...fields } = row as typeof row & Record<string, unknown>;
  const extraValues: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) {
    if (name in sessionFields) continue;
    extraValues[name] = fields[name];
    delete fields[name];
  }
  const session = fields as LoadedSession;
  // The account was locked or disabled since the session began: the session ends at this request, whatever its stage
  // (docs/requirements/session.md#lockout). Read in the same query, so the check costs no round trip.
  const closed = userStatus !== 'active' || (lockedUntil !== null && lockedUntil > now);
  if (closed || isExpired(session, now, ctx.config.sessions)) {
    await destroySession(db, idHash);
    const reason: SessionEndedCode | undefined = !closed
      ? undefined
      : userStatus === 'disabled_admin'
        ? 'Session_Ended_Account_Disabled'
        : userStatus === 'active' || userStatus === 'locked'
          ? 'Session_Ended_Account_Locked'
          : undefined;
    return reason ? { status: 'expired', endedBecause: reason } : { status: 'expired' };
  }
  return { status: 'valid', session, extras: extraValues as ExtraValues<E> };
}

/**
 * Restarts the idle timer of a logged-in session and answers it, in one statement, only if it is within its limits
 * at `now` and its account is open (the checks of `sessionOfCookie`, in the `UPDATE`'s condition); undefined
 * otherwise, and then nothing was written.
 */
export async function touchActiveSession(
  db: DbExecutor,
  idHash: string,
  now: Date,
  limits: SessionLimits,
): Promise<LoadedSession | undefined> {
  const touch = preparedStatement(db, 'session_touch_active', (name) =>
    db
      .update(sessions)
      .set({ lastSeenAt: sql`${NOW}` })
      .from(users)
      .where(
        and(
          eq(sessions.idHash, sql.placeholder('idHash')),
          eq(users.id, sessions.userId),
          eq(sessions.stage, 'active'),
          sql`${sessions.expiresAt} > ${NOW}`,
          sql`${sessions.lastSeenAt} > ${sql.placeholder('idleSince')}::timestamptz`,
          openAt(NOW),
        ),
      )
      .returning(sessionFields)
      .prepare(name),
  );
  const [row] = await touch.execute({
    idHash,
    now: nowValue(now),
    idleSince: nowValue(new Date(now.getTime() - limits.idleMs)),
  });
  return row;
}

/** Restarts the idle timer (activity on a protected route, or I'm still here). */
export async function touchSession(db: DbExecutor, idHash: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
}

/** What `GET /api/session` answers for a session (or none). */
export function sessionState(session: LoadedSession | undefined, now: Date, limits: SessionLimits): SessionState {
  if (!session) return { loggedIn: false };
  const idleSecondsLeft = Math.max(
    0,
    Math.floor((session.lastSeenAt.getTime() + limits.idleMs - now.getTime()) / 1000),
  );
  const absoluteSecondsLeft = Math.max(0, Math.floor((session.expiresAt.getTime() - now.getTime()) / 1000));
  const seconds = { idleSecondsLeft: Math.min(idleSecondsLeft, absoluteSecondsLeft), absoluteSecondsLeft };
  if (session.stage !== 'active') return { loggedIn: false, mfaPending: session.stage, ...seconds };
  return {
    loggedIn: true,
    username: session.username,
    displayName: `${session.firstName} ${session.lastName}`.trim(),
    ...seconds,
  };
}

/**
 * Replaces the request's session (if any) with a new one and sets its cookie: a new id at every change of privilege
 * (login steps, password change). `keep` carries the old session's start and absolute limit over.
 */
export async function rotateSession(
  ctx: Pick<ServiceContext, 'config' | 'now' | 'client' | 'session'>,
  tx: DbExecutor,
  session: {
    userId: string;
    stage: SessionStage;
    keep?: Pick<LoadedSession, 'createdAt' | 'expiresAt'>;
    authenticatedAt?: Date | null;
  },
): Promise<void> {
  const old = ctx.session.cookie;
  if (old) await destroySession(tx, hashSessionId(old));
  const id = await createSession(tx, {
    userId: session.userId,
    stage: session.stage,
    now: ctx.now(),
    limits: ctx.config.sessions,
    ip: ctx.client.ip,
    userAgent: ctx.client.userAgent || undefined,
    createdAt: session.keep?.createdAt,
    expiresAt: session.keep?.expiresAt,
    authenticatedAt: session.authenticatedAt,
  });
  ctx.session.issue(id);
}

/**
 * `rotateSession` and the audit event that records it, in ONE statement and only if `gate` answers a row: a query
 * answering the account's `id`, e.g. its lock re-checked (`for share`) or its failure count reset where it is still
 * open. A statement with data-modifying CTEs is atomic by itself and the gate's row lock holds until it ends, so the
 * verdict and the session need no explicit transaction: one round trip where BEGIN, the re-check, the session insert,
 * the event insert and COMMIT took five (docs/decisions/0062). Answers whether the session was created; only then is
 * the old session (the cookie's) ended and the new cookie issued.
 */
export async function rotateSessionIf(
  ctx: Pick<ServiceContext, 'config' | 'now' | 'client' | 'session'>,
  db: DbExecutor,
  gate: SQLWrapper,
  session: { userId: string; stage: SessionStage },
  event: Omit<AuditEvent, 'ip' | 'requestId'>,
): Promise<boolean> {
  const stamped: AuditEvent = { ...event, ip: ctx.client.ip, requestId: ctx.client.requestId };
  const row = auditRow(stamped);
  const id = newSessionId();
  const now = ctx.now();
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
  const columns = (...names: string[]) =>
    sql.join(
      names.map((name) => sql.identifier(name)),
      sql`, `,
    );
  const old = ctx.session.cookie;
  const [written] = rowsOf<{ id: unknown }>(
    await db.execute(sql`
      with opened as (${gate.getSQL()}),
      ${old ? sql`ended as (delete from ${sessions} where ${sessions.idHash} = ${hashSessionId(old)} and exists (select 1 from opened)),` : sql``}
      created as (
        insert into ${sessions} (${columns('id_hash', 'user_id', 'stage', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent')})
        select ${hashSessionId(id)}, opened.id, ${session.stage}::session_stage, ${at(now)}, ${at(now)},
          ${at(new Date(now.getTime() + ctx.config.sessions.absoluteMs))}, ${ctx.client.ip.slice(0, 45)},
          ${ctx.client.userAgent.slice(0, 512) || null}
        from opened where opened.id = ${session.userId}
        returning user_id
      )
      insert into ${auditEvents} (${columns('actor', 'action', 'target', 'outcome', 'ip', 'request_id', 'details')})
      select ${row.actor}, ${row.action}, ${row.target}, ${row.outcome}::audit_outcome, ${row.ip}, ${row.requestId},
        ${row.details === null ? null : JSON.stringify(row.details)}::jsonb
      from created
      returning id`),
  );
  if (!written) return false;
  auditWritten(stamped);
  ctx.session.issue(id);
  return true;
}

/** Deletes sessions past their absolute limit, or idle for longer than the idle limit (run by the job runner). */
export function sessionCleanupJob(
  limits: SessionLimits,
  intervalMs = 10 * 60_000,
  options: { now?: () => Date; batchSize?: number } = {},
): Job {
  // In batches (platform/retention.ts), by the app's clock: ended by the absolute limit or idle past the limit.
  return retentionJob('session-cleanup', { ...options, intervalMs }, (tx, now, batchSize) => {
    const idleSince = new Date(now.getTime() - limits.idleMs).toISOString();
    return deleteBatch(
      tx,
      'sessions',
      'id_hash',
      sql`(expires_at <= ${now.toISOString()}::timestamptz or last_seen_at <= ${idleSince}::timestamptz)`,
      batchSize,
    );
  });
}
