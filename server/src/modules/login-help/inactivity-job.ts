import { sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit';
import { rowsOf } from '../../platform/db-executor';
import type { Job } from '../../platform/jobs';
import { enqueueEmail } from './emails';

export const INACTIVITY_JOB = 'inactivity-disable';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Disables active accounts nobody has used for `days` days (docs/requirements/portal.md#self-reactivation): no login
 * and no password set since (a reset or a reactivation counts as use; an account that never logged in counts from
 * its creation; an administrator's re-enabling counts too). Each gets status `disabled_inactive`, an audit event and an emailed notice, in the job's transaction
 * (which holds its advisory lock, so one instance runs it; daily). Sessions are left alone: an account idle this long has none.
 */
export function inactivityDisableJob(settings: { days: number; now?: () => Date; intervalMs?: number }): Job {
  return {
    name: INACTIVITY_JOB,
    intervalMs: settings.intervalMs ?? DAY_MS,
    async run(tx) {
      const now = settings.now?.() ?? new Date();
      const cutoff = new Date(now.getTime() - settings.days * DAY_MS).toISOString();
      const disabled = rowsOf<{ id: string; email: string; first_name: string }>(
        await tx.execute(sql`
          update users set status = 'disabled_inactive'
          where status = 'active'
            and greatest(coalesce(last_login_at, created_at), password_changed_at, reenabled_at) < ${cutoff}::timestamptz
          returning id, email, first_name`),
      );
      for (const user of disabled) {
        await recordAudit(tx, {
          actor: 'system',
          action: 'account.disabled-inactive',
          target: user.id,
          outcome: 'success',
          details: { count: settings.days },
        });
        await enqueueEmail(tx, {
          to: user.email,
          template: 'account-disabled-inactive',
          data: { firstName: user.first_name, days: settings.days },
        });
      }
    },
  };
}
