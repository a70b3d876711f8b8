import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { outbox } from '../../src/db/schema';
import { dbOf, type FactoryTarget } from './target';

/** The mail a test's app queued: read from the outbox table, as the sender reads it. */

export type QueuedEmail = typeof outbox.$inferSelect;

/** The newest queued email to `to` of `template` (undefined when none). */
export async function latestEmail(
  target: FactoryTarget,
  to: string,
  template: string,
): Promise<QueuedEmail | undefined> {
  const [row] = await dbOf(target)
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, to), eq(outbox.template, template)))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return row;
}

/** Which queued emails `queuedEmails` answers: to `to` (as written, or in any letter case), of `template`. */
export interface EmailFilter {
  to?: string;
  template?: string;
  /** Match `to` whatever its letter case (an address the user typed in another case). */
  anyCase?: boolean;
}

/** Every email queued (sent or not), oldest first, that `filter` names: all of them without one. */
export async function queuedEmails(target: FactoryTarget, filter: EmailFilter = {}): Promise<QueuedEmail[]> {
  const conditions: SQL[] = [];
  if (filter.to !== undefined)
    conditions.push(
      filter.anyCase ? sql`lower(${outbox.recipient}) = ${filter.to.toLowerCase()}` : eq(outbox.recipient, filter.to),
    );
  if (filter.template !== undefined) conditions.push(eq(outbox.template, filter.template));
  return dbOf(target)
    .select()
    .from(outbox)
    .where(and(...conditions))
    .orderBy(asc(outbox.createdAt));
}

/** How many emails the outbox holds in all. */
export async function outboxCount(target: FactoryTarget): Promise<number> {
  return (await dbOf(target).select({ id: outbox.id }).from(outbox)).length;
}

/** The emails not yet sent (oldest first), optionally only those of one template; `clearOutbox` marks them sent. */
export async function outboxMail(target: FactoryTarget, template?: string): Promise<QueuedEmail[]> {
  const rows = await dbOf(target).select().from(outbox).where(isNull(outbox.sentAt)).orderBy(asc(outbox.createdAt));
  return rows.filter((row) => !template || row.template === template);
}

/** Marks every queued email sent, so the next `outboxMail` shows only what came after. */
export async function clearOutbox(target: FactoryTarget): Promise<void> {
  await dbOf(target).update(outbox).set({ sentAt: new Date() }).where(isNull(outbox.sentAt));
}

/** The token of the newest verification link emailed to `email`. */
export async function verificationToken(target: FactoryTarget, email: string): Promise<string> {
  const mail = await latestEmail(target, email, 'verify-email');
  if (!mail) throw new Error(`no verification email to ${email}`);
  return (mail.data as { token: string }).token;
}
