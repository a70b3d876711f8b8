import { and, eq } from 'drizzle-orm';
import { sessions, users } from '../../db/schema';
import { userById, type User } from '../../db/users';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions, type LoadedSession, openAt } from '../../identity/sessions/store';
import { recordPasswordFailure } from './lockout';

/**
 * The password of a logged-in user checked again (docs/requirements/session.md#re-authentication): to restart the
 * re-authentication window, and as the current password of a change on My account.
 */

/**
 * Checks a logged-in user's password again (re-authentication, the current password of a password change). A wrong
 * password counts toward the lockout exactly like a failed login; a locked or no longer active account fails the
 * same way after the same hash verification. When the failure locks the account, every session of the user ends.
 * Answers the user row when the password is right. Part of this module's service for My account.
 */
export async function verifyAccountPassword(
  ctx: ServiceContext,
  userId: string,
  password: string,
  action: string,
): Promise<User | null> {
  const { db, hasher } = ctx;
  const user = await userById(db, userId);
  if (!user) {
    await hasher.verifyDummy(password);
    return null;
  }
  const passwordOk = await hasher.verify(user.passwordHash, password);
  const now = ctx.now();
  if ((user.lockedUntil && user.lockedUntil > now) || user.status !== 'active') {
    const reason = user.status === 'active' ? 'locked' : `status_${user.status}`;
    await audit(ctx, db, { actor: user.id, action, target: user.id, outcome: 'failure', details: { reason } });
    return null;
  }
  if (!passwordOk) {
    const locked = await recordPasswordFailure(ctx, user, action);
    if (locked) await endAllSessions(db, user.id, { reason: 'account_locked' });
    return null;
  }
  // Still open after the hashing (a lock taken meanwhile wins); the count of failures is reset.
  const [open] = await db
    .update(users)
    .set({ failedLoginCount: 0, failedLoginFirstAt: null })
    .where(and(eq(users.id, user.id), openAt(ctx.now())))
    .returning({ id: users.id });
  return open ? user : null;
}

/**
 * `POST /api/auth/reauthenticate`: the password again restarts the re-authentication window of this session.
 * A wrong password answers 400 `Login_Failed` (not 401: the session itself is still valid).
 */
export async function reauthenticate(ctx: ServiceContext, session: LoadedSession, password: string): Promise<Date> {
  const user = await verifyAccountPassword(ctx, session.userId, password, 'reauthenticate');
  if (!user) throw new PortalError(400, 'Login_Failed');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await tx.update(sessions).set({ authenticatedAt: now }).where(eq(sessions.idHash, session.idHash));
    await audit(ctx, tx, {
      actor: user.id,
      action: 'reauthenticate',
      target: user.id,
      outcome: 'success',
      details: { method: 'password' },
    });
  });
  return now;
}
