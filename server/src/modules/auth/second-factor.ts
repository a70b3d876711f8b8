import type { LoginCompletion } from '@portal/contracts/auth';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { sessions, users } from '../../db/schema';
import { userById } from '../../db/users';
import type { AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { decryptSecret } from '../../platform/encryption';
import { looksLikeRecoveryCode, redeemRecoveryCode } from '../../identity/mfa/recovery-codes';
import { verifyTotp } from '../../identity/mfa/totp';
import { passwordExpired } from '../../identity/passwords/change';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { destroySession, rotateSession, type LoadedSession, openAt } from '../../identity/sessions/store';
import { lockForSecondFactors } from './lockout';

/**
 * The login's second factor (docs/requirements/session.md#mfa): a TOTP or recovery code, or a passkey (the passkeys
 * module's check), against two limits: MFA_MAX_FAILURES wrong factors end the pending login, MFA_ACCOUNT_MAX_FAILURES
 * lock the account. Then where the login goes next.
 */

/**
 * Claims a second-factor attempt of the account before the factor is checked: one `UPDATE … RETURNING` counts it
 * while the account is open and below MFA_ACCOUNT_MAX_FAILURES, and answers the count (null: refused unchecked, the
 * account is locked or its last allowed attempt is being checked). Parallel codes thus get no more checks than the
 * limit; an accepted one resets the count (`finishLogin`).
 */
async function claimSecondFactorAttempt(ctx: ServiceContext, userId: string): Promise<number | null> {
  const [row] = await ctx.db
    .update(users)
    .set({ mfaFailedCount: sql`${users.mfaFailedCount} + 1` })
    .where(
      and(eq(users.id, userId), openAt(ctx.now()), lt(users.mfaFailedCount, ctx.config.login.mfaAccountMaxFailures)),
    )
    .returning({ count: users.mfaFailedCount });
  return row?.count ?? null;
}

/**
 * Counts a wrong code (or a refused passkey) against the pending login; too many end it (the password must be given
 * again). `accountCount` is the account's count claimed for this attempt (a login's second factor, not an enrolment):
 * the attempt that reaches MFA_ACCOUNT_MAX_FAILURES locks the account.
 */
export async function recordSecondFactorFailure(
  ctx: ServiceContext,
  session: LoadedSession,
  method: AuditDetails['method'],
  accountCount?: number,
): Promise<void> {
  const { db } = ctx;
  const { mfaMaxFailures, mfaAccountMaxFailures } = ctx.config.login;
  const [row] = await db
    .update(sessions)
    .set({ mfaFailures: sql`${sessions.mfaFailures} + 1` })
    .where(eq(sessions.idHash, session.idHash))
    .returning({ failures: sessions.mfaFailures });
  const failures = row?.failures ?? mfaMaxFailures;
  const ended = failures >= mfaMaxFailures;
  if (ended) await destroySession(db, session.idHash);
  await audit(ctx, db, {
    actor: session.userId,
    action: 'login.mfa_failed',
    target: session.userId,
    outcome: 'failure',
    details: { method, count: failures, ...(ended ? { reason: 'too_many_codes' } : {}) },
  });
  if (accountCount !== undefined && accountCount >= mfaAccountMaxFailures)
    await lockForSecondFactors(ctx, session.userId, accountCount);
}

/**
 * A login's second factor (a TOTP or recovery code, a passkey): claims the attempt against the account's limit, runs
 * `check`, and counts a failure against the pending login and the account. Answers whether the factor was accepted.
 * Part of this module's service for the passkey login.
 */
export async function checkSecondFactor(
  ctx: ServiceContext,
  session: LoadedSession,
  method: AuditDetails['method'],
  check: () => Promise<boolean>,
): Promise<boolean> {
  const accountCount = await claimSecondFactorAttempt(ctx, session.userId);
  if (accountCount === null) {
    await audit(ctx, ctx.db, {
      actor: session.userId,
      action: 'login.mfa_failed',
      target: session.userId,
      outcome: 'failure',
      details: { method, reason: 'locked' },
    });
    return false;
  }
  if (await check()) return true;
  await recordSecondFactorFailure(ctx, session, method, accountCount);
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
export async function completeMfa(ctx: ServiceContext, session: LoadedSession, code: string): Promise<LoginCompletion> {
  const { db, secrets } = ctx;
  const now = ctx.now();
  const user = await userById(db, session.userId);
  if (!user?.totpSecretEncrypted) throw new PortalError(401, 'Mfa_Not_Pending');
  const typed = code.replace(/\s+/g, '');
  const method: AuditDetails['method'] = /^\d{6}$/.test(typed) ? 'totp' : 'recovery_code';
  const secretEncrypted = user.totpSecretEncrypted;
  const ok = await checkSecondFactor(ctx, session, method, async () => {
    if (method === 'recovery_code')
      return looksLikeRecoveryCode(typed) && redeemRecoveryCode(db, secrets.encryptionKey, user.id, typed, now);
    const step = await verifyTotp(decryptSecret(secrets.encryptionKey, secretEncrypted), typed, now, user.totpLastStep);
    return step !== null && claimTotpStep(db, user.id, step);
  });
  if (!ok) throw new PortalError(401, 'Mfa_Code_Invalid');
  return completeSecondFactor(ctx, session, method);
}

/**
 * Both factors were given: the one place that decides where the login goes next. Normally the pending session becomes
 * a logged-in one with a new id; when the password is older than the maximum age setting, it becomes a
 * `password-change` session instead (again a new id), which no protected route accepts: the password alone never
 * reaches the change. The login time is recorded either way. Runs in the caller's transaction.
 */
export async function finishLogin(
  ctx: ServiceContext,
  tx: DbExecutor,
  session: LoadedSession,
  now: Date,
): Promise<LoginCompletion> {
  const { maxAgeDays } = ctx.config.passwords;
  // Only while the account is open (a lock or a disabling that came meanwhile wins); an accepted second factor resets
  // the account's count of wrong ones.
  const [user] = await tx
    .update(users)
    .set({ lastLoginAt: now, mfaFailedCount: 0 })
    .where(and(eq(users.id, session.userId), openAt(now)))
    .returning({ passwordChangedAt: users.passwordChangedAt });
  if (!user) throw new PortalError(401, 'Session_Expired');
  const expired = maxAgeDays !== undefined && passwordExpired(user, now, maxAgeDays);
  await rotateSession(ctx, tx, {
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
  ctx: ServiceContext,
  session: LoadedSession,
  method: AuditDetails['method'],
): Promise<LoginCompletion> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const completion = await finishLogin(ctx, tx, session, now);
    await audit(ctx, tx, {
      actor: session.userId,
      action: 'login.mfa',
      target: session.userId,
      outcome: 'success',
      details: { method, ...(completion.loggedIn ? {} : { reason: 'password_expired' }) },
    });
    return completion;
  });
}
