import type { LoginNextStep } from '@portal/contracts/auth';
import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { userByUsername, wrongPasswordsToday, type User } from '../../db/users';
import { unknownUsernameTarget } from '../../identity/unknown-username';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { rotateSessionIf, openAt } from '../../identity/sessions/store';
import { recordPasswordFailure } from './lockout';

/**
 * The login's password step (docs/requirements/session.md#login, docs/decisions/0020). Every failed password check
 * answers the same 401 `Login_Failed`, after the same single password-hash verification, whatever the reason. Only the
 * right password, which proves who is asking, learns why the account cannot log in: its email is not verified yet
 * (403 `Email_Not_Verified`), it is locked (403 `Account_Locked` with `Retry-After` until the lock ends, or
 * `Account_Locked_Help_Desk`), disabled by an administrator (`Account_Disabled`) or for inactivity
 * (`Account_Inactive`).
 */

/** Audits a refused login: `target` is the account, or the fingerprint of a username no account has. */
function auditLoginFailed(ctx: ServiceContext, target: string, reason: string): Promise<void> {
  return audit(ctx, ctx.db, { actor: null, action: 'login.failed', target, outcome: 'failure', details: { reason } });
}

const loginFailed = () => new PortalError(401, 'Login_Failed');

/**
 * Why an account the right password was given for cannot log in now, as the answer to give; undefined when it can.
 * `Account_Locked`'s `Retry-After` is the seconds until the lock ends (the login page shows the time).
 */
async function blockedAnswer(
  ctx: ServiceContext,
  user: User,
  now: Date,
): Promise<{ error: PortalError; reason: string } | undefined> {
  // Locked with no end: by the daily ceiling (only the help desk unlocks it while its failures are in the last 24
  // hours), or by the help desk or the demo data (an administrator may unlock it).
  if (user.status === 'locked')
    return (await wrongPasswordsToday(ctx.db, user.id, now)) >= ctx.config.login.dailyFailureCeiling
      ? { error: new PortalError(403, 'Account_Locked_Help_Desk'), reason: 'status_locked' }
      : { error: new PortalError(403, 'Account_Locked'), reason: 'status_locked' };
  if (user.status === 'disabled_admin')
    return { error: new PortalError(403, 'Account_Disabled'), reason: 'status_disabled_admin' };
  if (user.status === 'disabled_inactive')
    return { error: new PortalError(403, 'Account_Inactive'), reason: 'status_disabled_inactive' };
  if (user.status === 'active' && user.lockedUntil && user.lockedUntil > now) {
    const seconds = Math.ceil((user.lockedUntil.getTime() - now.getTime()) / 1000);
    return {
      error: new PortalError(403, 'Account_Locked', undefined, { 'Retry-After': String(seconds) }),
      reason: 'locked',
    };
  }
  return undefined;
}

/** `POST /api/auth/login`: the password step. Answers which second-factor step comes next. */
export async function loginWithPassword(
  ctx: ServiceContext,
  input: { username: string; password: string },
): Promise<LoginNextStep> {
  const { db, hasher } = ctx;
  const user = await userByUsername(db, input.username);
  if (!user) {
    await hasher.verifyDummy(input.password); // the same work as a real check
    await auditLoginFailed(ctx, unknownUsernameTarget(ctx.secrets.encryptionKey, input.username), 'unknown_user');
    throw loginFailed();
  }
  const passwordOk = await hasher.verify(user.passwordHash, input.password);
  // The right password for an account that cannot log in: say why and how to get back in (it reveals nothing the
  // password did not). A wrong one gets the common answer below.
  const blocked = passwordOk ? await blockedAnswer(ctx, user, ctx.now()) : undefined;
  if (blocked) {
    await auditLoginFailed(ctx, user.id, blocked.reason);
    throw blocked.error;
  }
  if (user.lockedUntil && user.lockedUntil > ctx.now()) {
    await auditLoginFailed(ctx, user.id, 'locked');
    throw loginFailed();
  }
  // A registration whose email link has not been used yet: once the password proved who is asking, say so (it
  // reveals nothing the password did not), so the user knows to verify rather than to try other passwords.
  if (user.status === 'pending' && passwordOk) {
    await auditLoginFailed(ctx, user.id, 'email_not_verified');
    throw new PortalError(403, 'Email_Not_Verified');
  }
  if (user.status !== 'active') {
    await auditLoginFailed(ctx, user.id, `status_${user.status}`);
    throw loginFailed();
  }
  if (!passwordOk) {
    await recordPasswordFailure(ctx, user);
    throw loginFailed();
  }
  // Parameters raised since the hash was made: store a new hash while the password is at hand.
  const newHash = hasher.needsRehash(user.passwordHash) ? await hasher.hash(input.password) : undefined;
  const next: LoginNextStep = user.totpSecretEncrypted && user.mfaEnrolledAt ? 'mfa' : 'mfa-enroll';
  // The lock read above is from before the hashing: the session is created only if the account is still open now, in
  // one statement whose gate re-checks it and locks the account's row until the statement ends (a lock taken meanwhile
  // by a failure of the same burst wins), with the success's audit event (decision 0062: one round trip). Most logins
  // have nothing to reset: then the gate is a shared row lock that writes nothing; a failure's count or lock waits for
  // it, and it waits for theirs.
  const reset = user.failedLoginCount !== 0 || user.failedLoginFirstAt !== null || user.lockedUntil !== null;
  const stillOpen = and(eq(users.id, user.id), openAt(ctx.now()));
  const gate =
    reset || newHash
      ? db
          .update(users)
          .set({
            failedLoginCount: 0,
            failedLoginFirstAt: null,
            lockedUntil: null,
            ...(newHash ? { passwordHash: newHash } : {}),
          })
          .where(stillOpen)
          .returning({ id: users.id })
      : db.select({ id: users.id }).from(users).where(stillOpen).for('share');
  const opened = await rotateSessionIf(
    ctx,
    db,
    gate,
    { userId: user.id, stage: next },
    { actor: user.id, action: 'login.password', target: user.id, outcome: 'success', details: { method: 'password' } },
  );
  if (!opened) {
    await auditLoginFailed(ctx, user.id, 'locked');
    throw loginFailed();
  }
  return next;
}
