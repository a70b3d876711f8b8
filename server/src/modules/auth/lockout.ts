import { and, eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import { wrongPasswordsToday, type User } from '../../db/users';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions, openAt } from '../../identity/sessions/store';

/**
 * The per-account lockout (docs/requirements/session.md#lockout, docs/decisions/0029): wrong passwords counted in a
 * window, too many wrong second factors, and the lock they take. Shared by the password step, the second-factor step
 * and re-authentication.
 */

/** Audits a lock and emails the owner, in the transaction that took it. */
async function announceLock(
  ctx: Pick<ServiceContext, 'client' | 'config'>,
  tx: DbExecutor,
  owner: { id: string; email: string; firstName: string },
  details: { reason: 'password' | 'second_factor' | 'daily_ceiling'; count: number; until?: Date },
) {
  await audit(ctx, tx, {
    actor: 'system',
    action: 'account.locked',
    target: owner.id,
    outcome: 'success',
    details: {
      reason: details.reason,
      count: details.count,
      ...(details.until ? { until: details.until.toISOString() } : {}),
    },
  });
  await enqueueEmail(tx, {
    to: owner.email,
    template: 'account-locked',
    data: details.until
      ? {
          firstName: owner.firstName,
          unlockAt: details.until.toISOString(),
          lockMinutes: Math.round(ctx.config.login.lockoutDurationMs / 60_000),
        }
      : { firstName: owner.firstName, helpDesk: true },
  });
}

/**
 * Counts a failed password in the lockout window and locks the account when the count reaches the threshold, in one
 * `UPDATE` that only takes an open account: of parallel failures (a burst, several instances) each is counted once
 * while the account is open, exactly one locks it (one audit event, one email), and the ones judged after the lock
 * count nothing. Only this account's row is locked, for one statement. Answers whether this failure locked it.
 */
export async function recordPasswordFailure(
  ctx: ServiceContext,
  user: User,
  action = 'login.failed',
): Promise<boolean> {
  const { lockoutThreshold, lockoutWindowMs, lockoutDurationMs } = ctx.config.login;
  const now = ctx.now();
  const nowIso = now.toISOString();
  const until = new Date(now.getTime() + lockoutDurationMs);
  const windowStart = new Date(now.getTime() - lockoutWindowMs).toISOString();
  const inWindow = sql`${users.failedLoginFirstAt} > ${windowStart}::timestamptz`;
  const next = sql`(case when ${inWindow} then ${users.failedLoginCount} + 1 else 1 end)`;
  const reaches = sql`${next} >= ${lockoutThreshold}`;
  const locked = await ctx.db.transaction(async (tx) => {
    // This failure reaches the daily ceiling (counted across locks and unlocks): the account locks until the help
    // desk unlocks it.
    const ceilingReached = (await wrongPasswordsToday(tx, user.id, now)) + 1 >= ctx.config.login.dailyFailureCeiling;
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
    await audit(ctx, tx, {
      actor: null,
      action,
      target: user.id,
      outcome: 'failure',
      details: row ? { reason: 'wrong_password', count } : { reason: 'locked' },
    });
    if (row && ceilingReached) {
      await tx
        .update(users)
        .set({ status: 'locked', lockedUntil: null, failedLoginCount: 0, failedLoginFirstAt: null })
        .where(eq(users.id, user.id));
      await announceLock(ctx, tx, user, { reason: 'daily_ceiling', count: ctx.config.login.dailyFailureCeiling });
      return true;
    }
    if (lockedNow) await announceLock(ctx, tx, user, { reason: 'password', count: lockoutThreshold, until });
    return lockedNow;
  });
  if (locked) ctx.jobs.kick(OUTBOX_JOB);
  return locked;
}

/**
 * Locks an open account for the lockout duration after too many wrong second factors, once: the update only takes
 * an account still open. The account's sessions stop working at their next request (`lookupSession`).
 */
export async function lockForSecondFactors(ctx: ServiceContext, userId: string, count: number): Promise<void> {
  const { config } = ctx;
  const now = ctx.now();
  const until = new Date(now.getTime() + config.login.lockoutDurationMs);
  const locked = await ctx.db.transaction(async (tx) => {
    const [owner] = await tx
      .update(users)
      // One wrong second factor after the lock ends locks it again, until one is accepted (docs/decisions/0029).
      .set({ lockedUntil: until, mfaFailedCount: config.login.mfaAccountMaxFailures - 1 })
      .where(and(eq(users.id, userId), openAt(now)))
      .returning({ id: users.id, email: users.email, firstName: users.firstName });
    if (!owner) return false;
    // Like a password lock: every session and outstanding token of the account ends with it.
    await endAllSessions(tx, owner.id, { reason: 'account_locked' });
    await announceLock(ctx, tx, owner, { reason: 'second_factor', count, until });
    return true;
  });
  if (locked) ctx.jobs.kick(OUTBOX_JOB);
}
