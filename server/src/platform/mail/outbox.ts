import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { outbox } from '../../db/schema';
import type { DbExecutor } from '../db-executor';
import type { Job } from '../jobs';
import type { z } from 'zod';
import { emailTemplate, registerEmails, renderEmail, type EmailTemplates } from './registry';

export const OUTBOX_JOB = 'outbox-sender';
/** After this many failed deliveries a message stays in the outbox with its last error, for an operator to look at. */
export const MAX_ATTEMPTS = 8;

/**
 * Queues an email in the caller's transaction: it exists (and is sent) only if the change that causes it commits.
 * The data is checked against the template's schema now, not at send time. Features call the typed form their
 * `defineEmails` answers.
 */
export async function enqueueEmail(
  tx: DbExecutor,
  email: { to: string; template: string; data: unknown },
): Promise<string> {
  const data = emailTemplate(email.template).data.parse(email.data) as Record<string, unknown>;
  const [row] = await tx
    .insert(outbox)
    .values({ recipient: email.to, template: email.template, data })
    .returning({ id: outbox.id });
  return row!.id;
}

/**
 * A feature's email templates (its `emails.ts`): registered for the sender and the viewer, and answered with an
 * `enqueueEmail` that takes only these names, each with its own data.
 */
export function defineEmails<T extends EmailTemplates>(templates: T) {
  registerEmails(templates);
  return {
    templates,
    enqueueEmail: <N extends keyof T & string>(
      tx: DbExecutor,
      email: { to: string; template: N; data: z.input<T[N]['data']> },
    ): Promise<string> => enqueueEmail(tx, email),
  };
}

/** Delay before retry `attempt` (1-based): 30 s, 1, 2, 4 … minutes, capped at an hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
}

export interface SenderSettings {
  smtpUrl: string;
  from: string;
  publicUrl: string;
  intervalMs?: number;
  batchSize?: number;
}

/**
 * The outbox sender as a job: under the job's advisory lock (one instance at a time) it takes due rows
 * (`FOR UPDATE SKIP LOCKED`, so even a second sender would not take the same rows), delivers each over SMTP, and
 * marks it sent or schedules a retry with backoff.
 */
export function outboxSenderJob(
  settings: SenderSettings,
  transporter: Transporter = nodemailer.createTransport(settings.smtpUrl),
): Job {
  return {
    name: OUTBOX_JOB,
    intervalMs: settings.intervalMs ?? 15_000,
    async run(tx) {
      const due = await tx
        .select()
        .from(outbox)
        .where(
          and(isNull(outbox.sentAt), lte(outbox.nextAttemptAt, sql`now()`), sql`${outbox.attempts} < ${MAX_ATTEMPTS}`),
        )
        .orderBy(asc(outbox.createdAt))
        .limit(settings.batchSize ?? 20)
        .for('update', { skipLocked: true });
      for (const message of due) {
        try {
          const email = renderEmail(settings.publicUrl, message.template, message.data);
          await transporter.sendMail({
            from: settings.from,
            to: message.recipient,
            subject: email.subject,
            text: email.text,
            html: email.html,
          });
          await tx
            .update(outbox)
            .set({ sentAt: sql`now()`, attempts: message.attempts + 1, lastError: null })
            .where(eq(outbox.id, message.id));
        } catch (err) {
          const attempts = message.attempts + 1;
          await tx
            .update(outbox)
            .set({
              attempts,
              lastError: String((err as Error).message ?? err).slice(0, 500),
              nextAttemptAt: sql`now() + ${retryDelayMs(attempts)} * interval '1 millisecond'`,
            })
            .where(eq(outbox.id, message.id));
        }
      }
    },
  };
}
