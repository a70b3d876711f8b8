import { createHash } from 'node:crypto';
import { EMAIL_VERIFY_TTL_MS } from '@portal/contracts/registration';
import { emailKey } from '@portal/contracts/fields';
import { and, eq } from 'drizzle-orm';
import { accessRequests, oneTimeTokens, users } from '../../db/schema';
import { userById, usersByEmail } from '../../db/users';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import { consumeOneTimeToken, issueOneTimeToken, usedOneTimeTokenUser } from '../../platform/one-time-tokens';
import type { DbExecutor } from '../../platform/db-executor';
import { PortalError } from '../../platform/portal-error';
import { countAttempt } from '../../platform/rate-limit';
import { audit, type ServiceContext } from '../../platform/service-context';

/**
 * The link that activates a registered administrator's account, and asking for it again
 * (docs/requirements/portal.md#email-verification).
 */

export async function verifyEmail(ctx: Pick<ServiceContext, 'db' | 'now' | 'client'>, token: string): Promise<void> {
  const { db } = ctx;
  const now = ctx.now();
  const userId = await db.transaction(async (tx) => {
    const used = await consumeOneTimeToken(tx, { token, purpose: 'email-verify', now });
    if (!used) return null;
    await tx
      .update(users)
      .set({ status: 'active' })
      .where(and(eq(users.id, used.userId), eq(users.status, 'pending')));
    await audit(ctx, tx, {
      actor: used.userId,
      action: 'registration.verify-email',
      target: used.userId,
      outcome: 'success',
      details: { method: 'email_link' },
    });
    return used.userId;
  });
  if (userId) return;
  // A link already used on an account that is now active: say it is verified (and offer the login), not "invalid".
  const usedBy = await usedOneTimeTokenUser(db, { token, purpose: 'email-verify' });
  const owner = usedBy ? await userById(db, usedBy) : undefined;
  if (owner && owner.status !== 'pending') {
    await audit(ctx, db, {
      actor: usedBy,
      action: 'registration.verify-email',
      target: usedBy,
      outcome: 'failure',
      details: { reason: 'already_verified' },
    });
    throw new PortalError(400, 'Email_Already_Verified');
  }
  await audit(ctx, db, {
    actor: null,
    action: 'registration.verify-email',
    outcome: 'failure',
    details: { reason: 'invalid_token' },
  });
  throw new PortalError(400, 'Verification_Link_Invalid');
}

/** Verification emails per address and hour; beyond it the answer stays the same and nothing is sent. */
export const RESENDS_PER_ADDRESS_PER_HOUR = 3;

export async function resendVerification(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'jobs' | 'client'>,
  email: string,
): Promise<void> {
  const { db } = ctx;
  const now = ctx.now();
  // Keyed by a hash: the counter table holds no address, and a 254-character address fits its key.
  const sent = await countAttempt(
    db,
    `verify-resend|email:${createHash('sha256').update(emailKey(email)).digest('hex')}`,
    60 * 60_000,
  );
  let queued = false;
  if (sent.count <= RESENDS_PER_ADDRESS_PER_HOUR) {
    queued = await db.transaction(async (tx) => {
      const pending = await usersByEmail(tx, email, { status: 'pending' });
      // Only a pending account whose own registration asked for a link (not one made with an address in use).
      let any = false;
      for (const user of pending) {
        const [holder] = await tx
          .select({ id: oneTimeTokens.id })
          .from(oneTimeTokens)
          .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'email-verify')))
          .limit(1);
        if (!holder) continue;
        await queueVerificationEmail(tx, user, now);
        any = true;
      }
      return any;
    });
  }
  await audit(ctx, db, {
    actor: null,
    action: 'registration.verify-email.resend',
    outcome: 'success',
    details: {
      reason: queued ? 'sent' : sent.count > RESENDS_PER_ADDRESS_PER_HOUR ? 'address_limit' : 'no_pending_account',
    },
  });
  if (queued) ctx.jobs.kick(OUTBOX_JOB);
}

/**
 * Issues a new verification link to a pending account and queues its email (the resend above, and the help desk's
 * resend from its console: docs/requirements/help-desk.md#actions). The caller kicks the outbox after its commit.
 */
export async function queueVerificationEmail(
  tx: DbExecutor,
  user: { id: string; email: string; firstName: string },
  now: Date,
): Promise<void> {
  const token = await issueOneTimeToken(tx, { userId: user.id, purpose: 'email-verify', ttlMs: EMAIL_VERIFY_TTL_MS, now });
  // An end user's registration (no location link yet, only requests) gets its own wording.
  const [request] = await tx
    .select({ id: accessRequests.id })
    .from(accessRequests)
    .where(eq(accessRequests.userId, user.id))
    .limit(1);
  await enqueueEmail(tx, {
    to: user.email,
    template: 'verify-email',
    data: { firstName: user.firstName, token, ...(request ? { role: 'user' as const } : {}) },
  });
}
