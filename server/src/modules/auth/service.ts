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
 * Counts a failed password in the lockout window, atomically (two instances failing at once both count), and locks
 * the account when the threshold is reached: an audit event and an email in the same transaction.
 */
async function recordPasswordFailure(
  request: FastifyRequest,
  user: typeof users.$inferSelect,
  now: Date,
  action = 'login.failed',
): Promise<boolean> {
  const { config, database } = request.server;
  const { lockoutThreshold, lockoutWindowMs, lockoutDurationMs } = config.login;
  const windowStart = new Date(now.getTime() - lockoutWindowMs).toISOString();
  const inWindow = sql`${users.failedLoginFirstAt} > ${windowStart}::timestamptz`;
  let locked = false;
  await database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        failedLoginCount: sql`case when ${inWindow} then ${users.failedLoginCount} + 1 else 1 end`,
        failedLoginFirstAt: sql`case when ${inWindow} then ${users.failedLoginFirstAt} else ${now.toISOString()}::timestamptz end`,
      })
      .where(eq(users.id, user.id))
      .returning({ count: users.failedLoginCount });
    const count = row?.count ?? 1;
    await audit(request, tx, {
      actor: null,
      action,
      target: user.id,
      outcome: 'failure',
      details: { reason: 'wrong_password', count },
    });
    if (count < lockoutThreshold) return;
    const until = new Date(now.getTime() + lockoutDurationMs);
    await tx
      .update(users)
      .set({ lockedUntil: until, failedLoginCount: 0, failedLoginFirstAt: null })
      .where(eq(users.id, user.id));
    await audit(request, tx, {
      actor: 'system',
      action: 'account.locked',
      target: user.id,
      outcome: 'success',
      details: { count, until: until.toISOString() },
    });
    await enqueueEmail(tx, {
      to: user.email,
      template: 'account-locked',
      data: { firstName: user.firstName, unlockAt: until.toISOString() },
    });
    locked = true;
  });
  if (locked) request.server.jobs.kick(OUTBOX_JOB);
  return locked;
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
    await recordPasswordFailure(request, user, now);
    throw loginFailed();
  }
  // Parameters raised since the hash was made: store a new hash while the password is at hand.
  const newHash = passwordHasher.needsRehash(user.passwordHash) ? await passwordHasher.hash(input.password) : undefined;
  const next: LoginNextStep = user.totpSecretEncrypted && user.mfaEnrolledAt ? 'mfa' : 'mfa-enroll';
  // Most logins have nothing to reset: the update is skipped then (one statement fewer per login, decision 0020).
  const reset = user.failedLoginCount !== 0 || user.failedLoginFirstAt !== null || user.lockedUntil !== null;
  await db.transaction(async (tx) => {
    if (reset || newHash)
      await tx
        .update(users)
        .set({
          failedLoginCount: 0,
          failedLoginFirstAt: null,
          lockedUntil: null,
          ...(newHash ? { passwordHash: newHash } : {}),
        })
        .where(eq(users.id, user.id));
    await rotateSession(request, reply, tx, { userId: user.id, stage: next });
    await audit(request, tx, {
      actor: user.id,
      action: 'login.password',
      target: user.id,
      outcome: 'success',
      details: { method: 'password' },
    });
  });
  return next;
}

/**
 * Counts a wrong code (or a refused passkey) against the pending login; too many end it (the password must be given
 * again). Part of this module's service for the other second factors (passkeys).
 */
export async function recordSecondFactorFailure(
  request: FastifyRequest,
  session: LoadedSession,
  method: AuditDetails['method'],
): Promise<void> {
  const { db } = request.server.database;
  const [row] = await db
    .update(sessions)
    .set({ mfaFailures: sql`${sessions.mfaFailures} + 1` })
    .where(eq(sessions.idHash, session.idHash))
    .returning({ failures: sessions.mfaFailures });
  const failures = row?.failures ?? request.server.config.login.mfaMaxFailures;
  const ended = failures >= request.server.config.login.mfaMaxFailures;
  if (ended) await destroySession(db, session.idHash);
  await audit(request, db, {
    actor: session.userId,
    action: 'login.mfa_failed',
    target: session.userId,
    outcome: 'failure',
    details: { method, count: failures, ...(ended ? { reason: 'too_many_codes' } : {}) },
  });
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
  let method: AuditDetails['method'];
  let ok = false;
  if (/^\d{6}$/.test(typed)) {
    method = 'totp';
    const step = await verifyTotp(
      decryptSecret(secrets.encryptionKey, user.totpSecretEncrypted),
      typed,
      now,
      user.totpLastStep,
    );
    ok = step !== null && (await claimTotpStep(db, user.id, step));
  } else {
    method = 'recovery_code';
    ok = looksLikeRecoveryCode(typed) && (await redeemRecoveryCode(db, secrets.encryptionKey, user.id, typed, now));
  }
  if (!ok) {
    await recordSecondFactorFailure(request, session, method);
    throw codeInvalid();
  }
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
  const [user] = await tx
    .update(users)
    .set({ lastLoginAt: now })
    .where(eq(users.id, session.userId))
    .returning({ passwordChangedAt: users.passwordChangedAt });
  const expired = user !== undefined && maxAgeDays !== undefined && passwordExpired(user, now, maxAgeDays);
  await rotateSession(request, reply, tx, {
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
  await setSessionPassword(request, reply, session, user, newPassword, { reason: 'password_expired' });
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
    const locked = await recordPasswordFailure(request, user, now, action);
    if (locked) await endAllSessions(db, user.id);
    return null;
  }
  if (user.failedLoginCount > 0)
    await db.update(users).set({ failedLoginCount: 0, failedLoginFirstAt: null }).where(eq(users.id, user.id));
  return user;
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
  const { step, now, secretEncrypted } = await verifyPendingTotp(request, session, code, 'Mfa_Enroll_Not_Started');
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
