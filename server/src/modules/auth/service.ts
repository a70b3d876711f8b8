import type { LoginCompletion, LoginNextStep, MfaEnrollConfirm } from '@portal/contracts/auth';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessions, users } from '../../db/schema';
import { recordAudit, unknownUsernameTarget, type AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { decryptSecret, encryptSecret } from '../../platform/encryption';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import { passwordExpired, setSessionPassword } from '../../platform/password-change';
import { PortalError } from '../../platform/portal-error';
import { destroySession, endAllSessions, rotateSession, type LoadedSession } from '../../platform/session';
import { issueRecoveryCodes, looksLikeRecoveryCode, redeemRecoveryCode } from '../../platform/mfa/recovery-codes';
import { verifyPendingTotp } from '../../platform/mfa/pending-totp';
import { newTotpSecret, verifyTotp } from '../../platform/mfa/totp';
import { serviceContext } from '../../platform/service-context';

/**
 * Login and second factor (docs/requirements/session.md#login, docs/decisions/0020). Every failed password check
 * answers the same 401 `Login_Failed`, after the same single password-hash verification, whatever the reason; only
 * the right password of an account whose email is not verified yet answers 403 `Email_Not_Verified`.
 */

const loginFailed = () => new PortalError(401, 'Login_Failed');
const codeInvalid = () => new PortalError(401, 'Mfa_Code_Invalid');

function audit(
  request: FastifyRequest,
  db: DbExecutor,
  event: {
    actor: string | null;
    action: string;
    target?: string | null;
    outcome: 'success' | 'failure';
    details?: AuditDetails;
  },
) {
  return recordAudit(db, { ...event, ip: request.ip, requestId: request.id });
}

/**
 * The account may be tried: active and not locked at `now`. Every statement that records a verdict (a failure
 * counted, a lock, a session created, a second factor accepted) carries this condition, so a verdict and the lock
 * it depends on are one atomic step, whatever the order in which parallel attempts finish their hashing.
 */
function openAt(now: Date) {
  return sql`(${users.status} = 'active' and (${users.lockedUntil} is null or ${users.lockedUntil} <= ${now.toISOString()}::timestamptz))`;
}

/** Audits a lock and emails the owner, in the transaction that took it. */
async function announceLock(
  request: FastifyRequest,
  tx: DbExecutor,
  owner: { id: string; email: string; firstName: string },
  details: { reason: 'password' | 'second_factor'; count: number; until: Date },
) {
  await audit(request, tx, {
    actor: 'system',
    action: 'account.locked',
    target: owner.id,
    outcome: 'success',
    details: { reason: details.reason, count: details.count, until: details.until.toISOString() },
  });
  await enqueueEmail(tx, {
    to: owner.email,
    template: 'account-locked',
    data: {
      firstName: owner.firstName,
      unlockAt: details.until.toISOString(),
      lockMinutes: Math.round(request.server.config.login.lockoutDurationMs / 60_000),
    },
  });
}

/**
 * Counts a failed password in the lockout window and locks the account when the count reaches the threshold, in one
 * `UPDATE` that only takes an open account: of parallel failures (a burst, several instances) each is counted once
 * while the account is open, exactly one locks it (one audit event, one email), and the ones judged after the lock
 * count nothing. Only this account's row is locked, for one statement. Answers whether this failure locked it.
 */
async function recordPasswordFailure(
  request: FastifyRequest,
  user: typeof users.$inferSelect,
  action = 'login.failed',
): Promise<boolean> {
  const { config, database, clock } = request.server;
  const { lockoutThreshold, lockoutWindowMs, lockoutDurationMs } = config.login;
  const now = clock();
  const nowIso = now.toISOString();
  const until = new Date(now.getTime() + lockoutDurationMs);
  const windowStart = new Date(now.getTime() - lockoutWindowMs).toISOString();
  const inWindow = sql`${users.failedLoginFirstAt} > ${windowStart}::timestamptz`;
  const next = sql`(case when ${inWindow} then ${users.failedLoginCount} + 1 else 1 end)`;
  const reaches = sql`${next} >= ${lockoutThreshold}`;
  const locked = await database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        failedLoginCount: sql`case when ${reaches} then 0 else ${next} end`,
        failedLoginFirstAt: sql`case when ${reaches} then null when ${inWindow} then ${users.failedLoginFirstAt} else ${nowIso}::timestamptz end`,
        lockedUntil: sql`case when ${reaches} then ${until.toISOString()}::timestamptz else ${users.lockedUntil} end`,
      })
      .where(and(eq(users.id, user.id), openAt(now)))
      .returning({ count: users.failedLoginCount, lockedUntil: users.lockedUntil });
    // Not open any more: locked (or disabled) by an attempt judged first; this verdict counts for nothing.
    const lockedNow = row?.lockedUntil?.getTime() === until.getTime();
    const count = !row ? undefined : lockedNow ? lockoutThreshold : row.count;
    await audit(request, tx, {
      actor: null,
      action,
      target: user.id,
      outcome: 'failure',
      details: row ? { reason: 'wrong_password', count } : { reason: 'locked' },
    });
    if (lockedNow) await announceLock(request, tx, user, { reason: 'password', count: lockoutThreshold, until });
    return lockedNow;
  });
  if (locked) request.server.jobs.kick(OUTBOX_JOB);
  return locked;
}

/**
 * Locks an open account for the lockout duration after too many wrong second factors, once: the update only takes
 * an account still open. The account's sessions stop working at their next request (`lookupSession`).
 */
async function lockForSecondFactors(request: FastifyRequest, userId: string, count: number): Promise<void> {
  const { config, database, clock } = request.server;
  const now = clock();
  const until = new Date(now.getTime() + config.login.lockoutDurationMs);
  const locked = await database.db.transaction(async (tx) => {
    const [owner] = await tx
      .update(users)
      // One wrong second factor after the lock ends locks it again, until one is accepted (docs/decisions/0029).
      .set({ lockedUntil: until, mfaFailedCount: config.login.mfaAccountMaxFailures - 1 })
      .where(and(eq(users.id, userId), openAt(now)))
      .returning({ id: users.id, email: users.email, firstName: users.firstName });
    if (!owner) return false;
    // Like a password lock: every session and outstanding token of the account ends with it.
    await endAllSessions(tx, owner.id, { reason: 'account_locked' });
    await announceLock(request, tx, owner, { reason: 'second_factor', count, until });
    return true;
  });
  if (locked) request.server.jobs.kick(OUTBOX_JOB);
}

/** `POST /api/auth/login`: the password step. Answers which second-factor step comes next. */
export async function loginWithPassword(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { username: string; password: string },
): Promise<LoginNextStep> {
  const { database, passwordHasher, clock, secrets } = request.server;
  const { db } = database;
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, input.username.trim().toLowerCase()));
  if (!user) {
    await passwordHasher.verifyDummy(input.password); // the same work as a real check
    await audit(request, db, {
      actor: null,
      action: 'login.failed',
      target: unknownUsernameTarget(secrets.encryptionKey, input.username),
      outcome: 'failure',
      details: { reason: 'unknown_user' },
    });
    throw loginFailed();
  }
  const passwordOk = await passwordHasher.verify(user.passwordHash, input.password);
  const now = clock();
  if (user.lockedUntil && user.lockedUntil > now) {
    await audit(request, db, {
      actor: null,
      action: 'login.failed',
      target: user.id,
      outcome: 'failure',
      details: { reason: 'locked' },
    });
    throw loginFailed();
  }
  // A registration whose email link has not been used yet: once the password proved who is asking, say so (it
  // reveals nothing the password did not), so the user knows to verify rather than to try other passwords.
  if (user.status === 'pending' && passwordOk) {
    await audit(request, db, {
      actor: null,
      action: 'login.failed',
      target: user.id,
      outcome: 'failure',
      details: { reason: 'email_not_verified' },
    });
    throw new PortalError(403, 'Email_Not_Verified');
  }
  if (user.status !== 'active') {
    await audit(request, db, {
      actor: null,
      action: 'login.failed',
      target: user.id,
      outcome: 'failure',
      details: { reason: `status_${user.status}` },
    });
    throw loginFailed();
  }
  if (!passwordOk) {
    await recordPasswordFailure(request, user);
    throw loginFailed();
  }
  // Parameters raised since the hash was made: store a new hash while the password is at hand.
  const newHash = passwordHasher.needsRehash(user.passwordHash) ? await passwordHasher.hash(input.password) : undefined;
  const next: LoginNextStep = user.totpSecretEncrypted && user.mfaEnrolledAt ? 'mfa' : 'mfa-enroll';
  const opened = await db.transaction(async (tx) => {
    // The lock read above is from before the hashing: the session is created only if the account is still open now,
    // in the transaction whose first statement re-checks it (and takes the account's row lock until it commits).
    // A lock taken meanwhile by a failure of the same burst wins.
    const [open] = await tx
      .update(users)
      .set({
        failedLoginCount: 0,
        failedLoginFirstAt: null,
        lockedUntil: null,
        ...(newHash ? { passwordHash: newHash } : {}),
      })
      .where(and(eq(users.id, user.id), openAt(clock())))
      .returning({ id: users.id });
    if (!open) return false;
    await rotateSession(serviceContext(request, reply), tx, { userId: user.id, stage: next });
    await audit(request, tx, {
      actor: user.id,
      action: 'login.password',
      target: user.id,
      outcome: 'success',
      details: { method: 'password' },
    });
    return true;
  });
  if (!opened) {
    await audit(request, db, {
      actor: null,
      action: 'login.failed',
      target: user.id,
      outcome: 'failure',
      details: { reason: 'locked' },
    });
    throw loginFailed();
  }
  return next;
}

/**
 * Claims a second-factor attempt of the account before the factor is checked: one `UPDATE … RETURNING` counts it
 * while the account is open and below MFA_ACCOUNT_MAX_FAILURES, and answers the count (null: refused unchecked, the
 * account is locked or its last allowed attempt is being checked). Parallel codes thus get no more checks than the
 * limit; an accepted one resets the count (`finishLogin`).
 */
async function claimSecondFactorAttempt(request: FastifyRequest, userId: string): Promise<number | null> {
  const { database, clock, config } = request.server;
  const [row] = await database.db
    .update(users)
    .set({ mfaFailedCount: sql`${users.mfaFailedCount} + 1` })
    .where(and(eq(users.id, userId), openAt(clock()), lt(users.mfaFailedCount, config.login.mfaAccountMaxFailures)))
    .returning({ count: users.mfaFailedCount });
  return row?.count ?? null;
}

/**
 * Counts a wrong code (or a refused passkey) against the pending login; too many end it (the password must be given
 * again). `accountCount` is the account's count claimed for this attempt (a login's second factor, not an enrolment):
 * the attempt that reaches MFA_ACCOUNT_MAX_FAILURES locks the account.
 */
async function recordSecondFactorFailure(
  request: FastifyRequest,
  session: LoadedSession,
  method: AuditDetails['method'],
  accountCount?: number,
): Promise<void> {
  const { db } = request.server.database;
  const { mfaMaxFailures, mfaAccountMaxFailures } = request.server.config.login;
  const [row] = await db
    .update(sessions)
    .set({ mfaFailures: sql`${sessions.mfaFailures} + 1` })
    .where(eq(sessions.idHash, session.idHash))
    .returning({ failures: sessions.mfaFailures });
  const failures = row?.failures ?? mfaMaxFailures;
  const ended = failures >= mfaMaxFailures;
  if (ended) await destroySession(db, session.idHash);
  await audit(request, db, {
    actor: session.userId,
    action: 'login.mfa_failed',
    target: session.userId,
    outcome: 'failure',
    details: { method, count: failures, ...(ended ? { reason: 'too_many_codes' } : {}) },
  });
  if (accountCount !== undefined && accountCount >= mfaAccountMaxFailures)
    await lockForSecondFactors(request, session.userId, accountCount);
}

/**
 * A login's second factor (a TOTP or recovery code, a passkey): claims the attempt against the account's limit, runs
 * `check`, and counts a failure against the pending login and the account. Answers whether the factor was accepted.
 * Part of this module's service for the passkey login.
 */
export async function checkSecondFactor(
  request: FastifyRequest,
  session: LoadedSession,
  method: AuditDetails['method'],
  check: () => Promise<boolean>,
): Promise<boolean> {
  const accountCount = await claimSecondFactorAttempt(request, session.userId);
  if (accountCount === null) {
    await audit(request, request.server.database.db, {
      actor: session.userId,
      action: 'login.mfa_failed',
      target: session.userId,
      outcome: 'failure',
      details: { method, reason: 'locked' },
    });
    return false;
  }
  if (await check()) return true;
  await recordSecondFactorFailure(request, session, method, accountCount);
  return false;
}

/** Accepts a TOTP step only if it is later than the last one accepted (atomic: a replay racing the first use loses). */
async function claimTotpStep(db: DbExecutor, userId: string, step: number): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return claimed.length === 1;
}

/** `POST /api/auth/mfa`: a TOTP code or a recovery code completes the login; the session id changes again. */
export async function completeMfa(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
  code: string,
): Promise<LoginCompletion> {
  const { database, secrets, clock } = request.server;
  const { db } = database;
  const now = clock();
  const [user] = await db.select().from(users).where(eq(users.id, session.userId));
  if (!user?.totpSecretEncrypted) throw new PortalError(401, 'Mfa_Not_Pending');
  const typed = code.replace(/\s+/g, '');
  const method: AuditDetails['method'] = /^\d{6}$/.test(typed) ? 'totp' : 'recovery_code';
  const secretEncrypted = user.totpSecretEncrypted;
  const ok = await checkSecondFactor(request, session, method, async () => {
    if (method === 'recovery_code')
      return looksLikeRecoveryCode(typed) && redeemRecoveryCode(db, secrets.encryptionKey, user.id, typed, now);
    const step = await verifyTotp(decryptSecret(secrets.encryptionKey, secretEncrypted), typed, now, user.totpLastStep);
    return step !== null && claimTotpStep(db, user.id, step);
  });
  if (!ok) throw codeInvalid();
  return completeSecondFactor(request, reply, session, method);
}

/**
 * Both factors were given: the one place that decides where the login goes next. Normally the pending session becomes
 * a logged-in one with a new id; when the password is older than the maximum age setting, it becomes a
 * `password-change` session instead (again a new id), which no protected route accepts: the password alone never
 * reaches the change. The login time is recorded either way. Runs in the caller's transaction.
 */
async function finishLogin(
  request: FastifyRequest,
  reply: FastifyReply,
  tx: DbExecutor,
  session: LoadedSession,
  now: Date,
): Promise<LoginCompletion> {
  const { maxAgeDays } = request.server.config.passwords;
  // Only while the account is open (a lock or a disabling that came meanwhile wins); an accepted second factor resets
  // the account's count of wrong ones.
  const [user] = await tx
    .update(users)
    .set({ lastLoginAt: now, mfaFailedCount: 0 })
    .where(and(eq(users.id, session.userId), openAt(now)))
    .returning({ passwordChangedAt: users.passwordChangedAt });
  if (!user) throw new PortalError(401, 'Session_Expired');
  const expired = maxAgeDays !== undefined && passwordExpired(user, now, maxAgeDays);
  await rotateSession(serviceContext(request, reply), tx, {
    userId: session.userId,
    stage: expired ? 'password-change' : 'active',
    keep: session,
    authenticatedAt: expired ? null : now,
  });
  return expired ? { loggedIn: false, next: 'password-change', passwordMaxAgeDays: maxAgeDays } : { loggedIn: true };
}

/**
 * The second factor was given (a TOTP or recovery code, or a passkey): the login completes (or goes on to the
 * change of an expired password), with a new session id, audited. Part of this module's service for the passkey login.
 */
export async function completeSecondFactor(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
  method: AuditDetails['method'],
): Promise<LoginCompletion> {
  const now = request.server.clock();
  return request.server.database.db.transaction(async (tx) => {
    const completion = await finishLogin(request, reply, tx, session, now);
    await audit(request, tx, {
      actor: session.userId,
      action: 'login.mfa',
      target: session.userId,
      outcome: 'success',
      details: { method, ...(completion.loggedIn ? {} : { reason: 'password_expired' }) },
    });
    return completion;
  });
}

/**
 * `POST /api/auth/password-change`: the new password of a login whose password had expired (both factors given). The
 * same rules and effects as a change on My account: other sessions end, this one becomes logged in, a notice email.
 */
export async function completePasswordChange(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
  newPassword: string,
): Promise<void> {
  const [user] = await request.server.database.db.select().from(users).where(eq(users.id, session.userId));
  if (!user) throw new PortalError(401, 'Mfa_Not_Pending');
  await setSessionPassword(serviceContext(request, reply), session, user, newPassword, { reason: 'password_expired' });
}

/**
 * Checks a logged-in user's password again (re-authentication, the current password of a password change). A wrong
 * password counts toward the lockout exactly like a failed login; a locked or no longer active account fails the
 * same way after the same hash verification. When the failure locks the account, every session of the user ends.
 * Answers the user row when the password is right. Part of this module's service for My account.
 */
export async function verifyAccountPassword(
  request: FastifyRequest,
  userId: string,
  password: string,
  action: string,
): Promise<typeof users.$inferSelect | null> {
  const { database, passwordHasher, clock } = request.server;
  const { db } = database;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) {
    await passwordHasher.verifyDummy(password);
    return null;
  }
  const passwordOk = await passwordHasher.verify(user.passwordHash, password);
  const now = clock();
  if ((user.lockedUntil && user.lockedUntil > now) || user.status !== 'active') {
    const reason = user.status === 'active' ? 'locked' : `status_${user.status}`;
    await audit(request, db, { actor: user.id, action, target: user.id, outcome: 'failure', details: { reason } });
    return null;
  }
  if (!passwordOk) {
    const locked = await recordPasswordFailure(request, user, action);
    if (locked) await endAllSessions(db, user.id, { reason: 'account_locked' });
    return null;
  }
  // Still open after the hashing (a lock taken meanwhile wins); the count of failures is reset.
  const [open] = await db
    .update(users)
    .set({ failedLoginCount: 0, failedLoginFirstAt: null })
    .where(and(eq(users.id, user.id), openAt(clock())))
    .returning({ id: users.id });
  return open ? user : null;
}

/**
 * `POST /api/auth/reauthenticate`: the password again restarts the re-authentication window of this session.
 * A wrong password answers 400 `Login_Failed` (not 401: the session itself is still valid).
 */
export async function reauthenticate(request: FastifyRequest, session: LoadedSession, password: string): Promise<Date> {
  const user = await verifyAccountPassword(request, session.userId, password, 'reauthenticate');
  if (!user) throw new PortalError(400, 'Login_Failed');
  const now = request.server.clock();
  const { db } = request.server.database;
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ authenticatedAt: now }).where(eq(sessions.idHash, session.idHash));
    await audit(request, tx, {
      actor: user.id,
      action: 'reauthenticate',
      target: user.id,
      outcome: 'success',
      details: { method: 'password' },
    });
  });
  return now;
}

/** Enrolment, step 1: a new secret, kept (encrypted) on the pending session until a code confirms it. */
export async function startEnrolment(request: FastifyRequest, session: LoadedSession): Promise<string> {
  const { database, secrets } = request.server;
  const secret = newTotpSecret();
  await database.db
    .update(sessions)
    .set({ pendingTotpSecretEncrypted: encryptSecret(secrets.encryptionKey, secret) })
    .where(eq(sessions.idHash, session.idHash));
  await audit(request, database.db, {
    actor: session.userId,
    action: 'mfa.enrol_started',
    target: session.userId,
    outcome: 'success',
    details: { method: 'totp' },
  });
  return secret;
}

/**
 * Enrolment, step 2: a code from the new secret confirms it; the secret becomes the user's, 10 recovery codes are
 * issued, every other session of the user ends (an MFA change) and this one becomes a logged-in session.
 */
export async function confirmEnrolment(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
  code: string,
): Promise<MfaEnrollConfirm> {
  const { database, secrets } = request.server;
  const { step, now, secretEncrypted } = await verifyPendingTotp(
    serviceContext(request),
    session,
    code,
    'Mfa_Enroll_Not_Started',
  );
  if (step === null) {
    await recordSecondFactorFailure(request, session, 'totp');
    // The first setup: the user has no recovery codes yet, so the message does not mention them.
    throw new PortalError(401, 'Mfa_Setup_Code_Invalid');
  }
  return database.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecretEncrypted: secretEncrypted, totpLastStep: step, mfaEnrolledAt: now })
      .where(eq(users.id, session.userId));
    const recoveryCodes = await issueRecoveryCodes(tx, secrets.encryptionKey, session.userId);
    const ended = await endAllSessions(tx, session.userId, { exceptIdHash: session.idHash });
    const completion = await finishLogin(request, reply, tx, session, now);
    await audit(request, tx, {
      actor: session.userId,
      action: 'mfa.enrolled',
      target: session.userId,
      outcome: 'success',
      details: { method: 'totp', field: 'mfa', sessionCount: ended },
    });
    return { recoveryCodes, ...completion };
  });
}
