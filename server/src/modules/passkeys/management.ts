import type { Passkey } from '@portal/contracts/account';
import { and, asc, eq } from 'drizzle-orm';
import { passkeys, users } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions, type LoadedSession } from '../../identity/sessions/store';

/** A user's passkeys on My account: the list, a new name, a removal, and what adding or removing one does besides. */

/** The audit event of a passkey flow: the user acts on their own account, by passkey. */
export function auditPasskey(
  ctx: Pick<ServiceContext, 'client'>,
  db: DbExecutor,
  event: { userId: string; action: string; outcome: 'success' | 'failure'; reason?: string; sessionCount?: number },
) {
  return audit(ctx, db, {
    actor: event.userId,
    action: event.action,
    target: event.userId,
    outcome: event.outcome,
    details: {
      method: 'passkey',
      ...(event.reason ? { reason: event.reason } : {}),
      ...(event.sessionCount !== undefined ? { sessionCount: event.sessionCount } : {}),
    },
  });
}

/**
 * What adding or removing a passkey does besides (docs/requirements/session.md#passkeys), as for the authenticator
 * app: every other session of the user ends (and with them every outstanding emailed link or code), the owner is
 * emailed and the event audited. Answers how many sessions ended.
 */
export async function passkeyChanged(
  ctx: Pick<ServiceContext, 'client'>,
  tx: DbExecutor,
  session: LoadedSession,
  change: { kind: 'added' | 'removed'; name: string },
): Promise<number> {
  const { userId } = session;
  const sessionCount = await endAllSessions(tx, userId, { exceptIdHash: session.idHash });
  const [user] = await tx
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, userId));
  if (user)
    await enqueueEmail(tx, {
      to: user.email,
      template: 'passkey-changed',
      data: { firstName: user.firstName, change: change.kind, name: change.name },
    });
  await auditPasskey(ctx, tx, { userId, action: `passkey.${change.kind}`, outcome: 'success', sessionCount });
  return sessionCount;
}

export function toPasskey(row: typeof passkeys.$inferSelect): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    backedUp: row.backedUp,
  };
}

export async function listPasskeys(db: DbExecutor, userId: string): Promise<Passkey[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
  return rows.map(toPasskey);
}

export async function renamePasskey(ctx: ServiceContext, userId: string, id: string, name: string): Promise<Passkey> {
  const [row] = await ctx.db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw new PortalError(404, 'Passkey_Not_Found');
  await auditPasskey(ctx, ctx.db, { userId, action: 'passkey.renamed', outcome: 'success' });
  return toPasskey(row);
}

export async function removePasskey(ctx: ServiceContext, session: LoadedSession, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, session.userId)))
      .returning({ name: passkeys.name });
    if (!removed) throw new PortalError(404, 'Passkey_Not_Found');
    await passkeyChanged(ctx, tx, session, { kind: 'removed', name: removed.name });
  });
  ctx.jobs.kick(OUTBOX_JOB);
}
