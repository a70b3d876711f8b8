import { EMAIL_CHANGE_TTL_MS } from '@portal/contracts/account';
import { sameEmail } from '@portal/contracts/fields';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { userById, usersByEmail } from '../../db/users';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { consumeOneTimeToken, issueOneTimeToken, revokeOneTimeTokens } from '../../identity/one-time-tokens';
import { PortalError } from '../../platform/portal-error';
import { countAttempt, retryAfterHeader } from '../../platform/rate-limit';
import { audit, type ServiceContext } from '../../identity/service-context';
import type { LoadedSession } from '../../identity/sessions/store';

/** Email-change requests per user and hour: each one emails two addresses, so it must not become a mail cannon. */
const EMAIL_CHANGES_PER_HOUR = 5;

/** Another account whose address is `email` (whatever its case), if any. */
async function otherAccountWithEmail(db: DbExecutor, email: string, userId: string) {
  const [other] = await usersByEmail(db, email, { except: userId }).limit(1);
  return other;
}

/**
 * `POST /api/account/email` (docs/requirements/session.md#my-account): the new address must be proven before it is
 * used, as at registration. A free address gets a single-use link (72 hours; it replaces any earlier one); an address
 * another account uses gets a notice instead, and the caller the same answer, so the request reveals no account. The
 * current address is told in both cases, so a hijacked session cannot move the account silently.
 */
export async function requestEmailChange(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'jobs' | 'client'>,
  session: LoadedSession,
  email: string,
): Promise<void> {
  const { db } = ctx;
  const now = ctx.now();
  const user = await userById(db, session.userId);
  if (!user) throw new PortalError(401, 'Not_Logged_In');
  if (sameEmail(email, user.email)) throw new PortalError(400, 'Email_Unchanged', { email: ['Email_Unchanged'] });
  const sent = await countAttempt(db, `email-change|user:${user.id}`, 60 * 60_000);
  if (sent.count > EMAIL_CHANGES_PER_HOUR) {
    await audit(ctx, db, {
      actor: user.id,
      target: user.id,
      action: 'email.change_requested',
      outcome: 'failure',
      details: { field: 'email', reason: 'user_limit' },
    });
    throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(sent.ttlMs));
  }
  await db.transaction(async (tx) => {
    const taken = await otherAccountWithEmail(tx, email, user.id);
    if (taken) {
      // The links sent before stop working, exactly as when a new link is sent.
      await revokeOneTimeTokens(tx, { userId: user.id, purpose: 'email-change', now });
      await enqueueEmail(tx, { to: email, template: 'email-change-in-use', data: { firstName: taken.firstName } });
    } else {
      const token = await issueOneTimeToken(tx, {
        userId: user.id,
        purpose: 'email-change',
        ttlMs: EMAIL_CHANGE_TTL_MS,
        now,
        email,
      });
      await enqueueEmail(tx, { to: email, template: 'email-change-link', data: { firstName: user.firstName, token } });
    }
    await enqueueEmail(tx, { to: user.email, template: 'email-change-requested', data: { firstName: user.firstName } });
    // The outcome is the same (the user's activity list must not tell); only the reason, never shown, differs.
    await audit(ctx, tx, {
      actor: user.id,
      target: user.id,
      action: 'email.change_requested',
      outcome: 'success',
      details: { field: 'email', ...(taken ? { reason: 'address_in_use' } : {}) },
    });
  });
  ctx.jobs.kick(OUTBOX_JOB);
}

/**
 * `POST /api/account/email/confirm`: the link's token, logged in or not (opening it proves the new address; the
 * request itself needed a recent login). The old address is told that the change happened.
 */
export async function confirmEmailChange(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'jobs' | 'client'>,
  token: string,
): Promise<void> {
  const { db } = ctx;
  const now = ctx.now();
  const outcome = await db.transaction(async (tx): Promise<{ reason: string | null; userId?: string }> => {
    const used = await consumeOneTimeToken(tx, { token, purpose: 'email-change', now });
    if (!used?.email) return { reason: 'invalid_token' };
    const user = await userById(tx, used.userId);
    if (!user) return { reason: 'invalid_token' };
    // Another account took the address after the link was sent: the link is spent and changes nothing.
    if (await otherAccountWithEmail(tx, used.email, used.userId))
      return { reason: 'address_in_use', userId: used.userId };
    await tx.update(users).set({ email: used.email }).where(eq(users.id, used.userId));
    await enqueueEmail(tx, { to: user.email, template: 'email-changed', data: { firstName: user.firstName } });
    await audit(ctx, tx, {
      actor: used.userId,
      target: used.userId,
      action: 'email.changed',
      outcome: 'success',
      details: { field: 'email', method: 'email_link' },
    });
    return { reason: null };
  });
  if (outcome.reason) {
    await audit(ctx, db, {
      actor: outcome.userId ?? null,
      target: outcome.userId ?? null,
      action: 'email.changed',
      outcome: 'failure',
      details: { field: 'email', method: 'email_link', reason: outcome.reason },
    });
    throw new PortalError(400, 'Email_Change_Link_Invalid');
  }
  ctx.jobs.kick(OUTBOX_JOB);
}
