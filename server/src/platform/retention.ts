import { sql, type SQL } from 'drizzle-orm';
import { recordAudit } from './audit';
import { rowsOf, type DbExecutor } from './db-executor';
import type { Job, JobResult } from './jobs';
import { DAY_MS } from '@portal/contracts/time';

/** Rows one run of a retention job deletes; a fuller backlog continues in the next run, at once (jobs.ts). */
export const RETENTION_BATCH_SIZE = 1000;
const HOUR_MS = 60 * 60_000;

export const AUDIT_RETENTION_JOB = 'audit-retention';
export const OUTBOX_RETENTION_JOB = 'outbox-retention';

/**
 * Deletes at most `batchSize` rows of `table` that match `where`, by their key, and answers how many. Rows another
 * transaction holds are skipped (they are taken next time), so a purge never waits on, nor blocks, the portal's own
 * work for long: each batch is its own short transaction (docs/decisions/0032).
 */
export async function deleteBatch(
  tx: DbExecutor,
  table: string,
  key: string,
  where: SQL,
  batchSize: number,
): Promise<number> {
  const t = sql.identifier(table);
  const k = sql.identifier(key);
  const deleted = rowsOf<{ n: number }>(
    await tx.execute(sql`
      with gone as (
        delete from ${t} where ${k} in (select ${k} from ${t} where ${where} limit ${batchSize} for update skip locked)
        returning 1
      )
      select count(*)::int as n from gone`),
  );
  return Number(deleted[0]?.n ?? 0);
}

/** How any purge job runs: by the app's clock (tests move it), in batches, hourly unless told otherwise. */
export interface PurgeSchedule {
  /** The current time (the app's clock): tests move it. */
  now?: () => Date;
  batchSize?: number;
  intervalMs?: number;
}

export interface RetentionSettings extends PurgeSchedule {
  /** AUDIT_RETENTION_DAYS: audit events are kept online this long (docs/requirements/portal.md#rate-limits-and-audit). */
  auditDays: number;
  /** SENT_MAIL_RETENTION_DAYS: a delivered email stays in the outbox this long after it was sent. */
  sentMailDays: number;
}

/** A job that runs `purge` (at most one batch) and runs again at once while a batch came back full (jobs.ts). */
export function retentionJob(
  name: string,
  settings: PurgeSchedule,
  purge: (tx: DbExecutor, now: Date, batchSize: number) => Promise<number>,
): Job {
  return {
    name,
    intervalMs: settings.intervalMs ?? HOUR_MS,
    async run(tx): Promise<JobResult> {
      const batchSize = settings.batchSize ?? RETENTION_BATCH_SIZE;
      const deleted = await purge(tx, settings.now?.() ?? new Date(), batchSize);
      return { more: deleted === batchSize };
    },
  };
}

/** The moment `days` days before `now`, for a `timestamptz` comparison. */
export const cutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * The retention jobs, each under the job runner's advisory lock (one instance at a time), hourly, in batches:
 * - audit events older than `auditDays` (90 days online, CMS ARS AU-11; the yearly archive is the database backups),
 *   each purge itself audited with its count;
 * - outbox rows delivered more than `sentMailDays` ago (undelivered ones stay, for the sender or an operator).
 * The account tables' purges are their owners' (identity/: sessions, one-time tokens; modules/ops: console sessions).
 */
export function retentionJobs(settings: RetentionSettings): Job[] {
  return [
    retentionJob(AUDIT_RETENTION_JOB, settings, async (tx, now, batchSize) => {
      const before = cutoff(now, settings.auditDays);
      const deleted = await deleteBatch(tx, 'audit_events', 'id', sql`at < ${before}::timestamptz`, batchSize);
      if (deleted)
        await recordAudit(tx, {
          actor: 'system',
          action: 'audit.retention',
          outcome: 'success',
          // `until`: events before this moment are gone.
          details: { count: deleted, until: before },
        });
      return deleted;
    }),
    retentionJob(OUTBOX_RETENTION_JOB, settings, (tx, now, batchSize) =>
      deleteBatch(tx, 'outbox', 'id', sql`sent_at < ${cutoff(now, settings.sentMailDays)}::timestamptz`, batchSize),
    ),
  ];
}
