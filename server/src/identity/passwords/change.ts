import type { ErrorCode } from '@portal/contracts/errors';
import { asc, eq } from 'drizzle-orm';
import { passkeys, users } from '../../db/schema';
import type { User } from '../../db/users';
import type { AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from '../emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { isRecentPassword, rememberPassword } from './history';
import { passwordProblems } from './policy';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../service-context';
import { endAllSessions, rotateSession, type LoadedSession } from '../sessions/store';

/**
 * Setting a new password (docs/requirements/session.md#password-maximum-age): one rule set for the password change on My account,
 * the change of an expired password at login and the reset by email.
 */

/**
 * Why `password` cannot be `user`'s new password, most important first; empty when it can: the shared policy with the
 * blocklist and the user's own names, then the current password and the last ones (the history rule).
 */
export async function newPasswordProblems(
  ctx: Pick<ServiceContext, 'db' | 'hasher' | 'config'>,
  user: User,
  password: string,
): Promise<ErrorCode[]> {
  const { db, hasher, config } = ctx;
  const problems = passwordProblems(password, [user.firstName, user.lastName, user.username, user.email]);
  if (problems.length) return problems;
  const reused =
    (await hasher.verify(user.passwordHash, password)) ||
    (await isRecentPassword(db, hasher, user.id, password, config.passwords.historyCount));
  return reused ? ['Password_Reused'] : [];
}

/**
 * The names of the user's passkeys, for the notice of a password change: a password change keeps them (a passkey is
 * only ever a second factor), so the notice lists them and the owner can spot one they did not add
 * (docs/decisions/0030-passkeys-and-credential-changes.md).
 */
export async function passkeyNames(db: DbExecutor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: passkeys.name })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows.map((r) => r.name);
}

/** Whether the password of `user` has reached the maximum age (the setting, in days) at `now`. */
export function passwordExpired(user: Pick<User, 'passwordChangedAt'>, now: Date, maxAgeDays: number): boolean {
  return now.getTime() - user.passwordChangedAt.getTime() >= maxAgeDays * 86_400_000;
}

/**
 * Sets a logged-in (or expired-password) session's new password: 400 with the reasons under `newPassword` when the
 * policy or the history refuses it; otherwise, in one transaction, the hash and its history entry, every other session
 * of the user ends (and with them every outstanding emailed link or code), this one becomes a logged-in session with a new id, a notice email and an audit event. Answers how
 * many other sessions ended. The caller has checked who the user is (the current password, or both login factors).
 */
export async function setSessionPassword(
  ctx: ServiceContext,
  session: LoadedSession,
  user: User,
  newPassword: string,
  details: Pick<AuditDetails, 'reason'> = {},
): Promise<number> {
  const problems = await newPasswordProblems(ctx, user, newPassword);
  if (problems.length) throw new PortalError(400, problems[0]!, { newPassword: problems });
  const passwordHash = await ctx.hasher.hash(newPassword);
  const now = ctx.now();
  const ended = await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: now }).where(eq(users.id, user.id));
    await rememberPassword(tx, user.id, passwordHash, ctx.config.passwords.historyCount);
    const ended = await endAllSessions(tx, user.id, { exceptIdHash: session.idHash });
    await rotateSession(ctx, tx, {
      userId: user.id,
      stage: 'active',
      keep: session,
      authenticatedAt: now,
    });
    await enqueueEmail(tx, {
      to: user.email,
      template: 'password-changed',
      data: { firstName: user.firstName, passkeys: await passkeyNames(tx, user.id) },
    });
    await audit(ctx, tx, {
      actor: user.id,
      target: user.id,
      action: 'password.changed',
      outcome: 'success',
      details: { ...details, field: 'password', sessionCount: ended },
    });
    return ended;
  });
  ctx.jobs.kick(OUTBOX_JOB);
  return ended;
}
