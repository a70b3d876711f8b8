import { sql } from 'drizzle-orm';
import type { Job, JobResult } from '../platform/jobs';
import { deleteBatch, RETENTION_BATCH_SIZE } from '../platform/retention';
import { DAY_MS } from '@portal/contracts/time';

export const CLAIMS_RETENTION_JOB = 'claims-retention';

/**
 * Purges paid claims older than the authority lookback window plus a margin (docs/requirements/data-feeds.md#retention):
 * they can no longer prove authority. Hourly, in batches, under the job runner's lock (one instance at a time).
 */
export function claimsRetentionJob(settings: {
  lookbackDays: number;
  marginDays: number;
  now?: () => Date;
  batchSize?: number;
}): Job {
  return {
    name: CLAIMS_RETENTION_JOB,
    intervalMs: 60 * 60 * 1000,
    async run(tx): Promise<JobResult> {
      const batchSize = settings.batchSize ?? RETENTION_BATCH_SIZE;
      const now = settings.now?.() ?? new Date();
      const before = new Date(now.getTime() - (settings.lookbackDays + settings.marginDays) * DAY_MS)
        .toISOString()
        .slice(0, 10);
      const deleted = await deleteBatch(tx, 'claims', 'id', sql`paid_date < ${before}::date`, batchSize);
      return { more: deleted === batchSize };
    },
  };
}
