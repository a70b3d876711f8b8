import { EMAIL_VERIFY_TTL_MS } from '@portal/contracts/registration';
import { sql } from 'drizzle-orm';
import type { Job } from '../../platform/jobs';
import { recordAudit } from '../../platform/audit';
import { rowsOf } from '../../platform/db-executor';
import { refreshDemoClaimDates } from '../../db/demo-data';

export const REGISTRATION_EXPIRY_JOB = 'registration-expiry';

/**
 * Deletes self-registrations still unverified after 72 hours (docs/requirements/portal.md#email-verification): the
 * pending administrator account never logged in, and with it (cascade) its location link, tokens, answers and
 * password history, so the location can be registered again; a pending end user's account goes the same way with its
 * access requests (docs/requirements/staff-accounts.md#end-users). Under the job runner's advisory lock.
 */
export function registrationExpiryJob(intervalMs = 15 * 60_000, ttlMs = EMAIL_VERIFY_TTL_MS): Job {
  return {
    name: REGISTRATION_EXPIRY_JOB,
    intervalMs,
    async run(tx) {
      const deleted = rowsOf<{ id: string }>(
        await tx.execute(sql`
          delete from users u
          where u.status = 'pending' and u.last_login_at is null
            and u.created_at <= now() - ${ttlMs} * interval '1 millisecond'
            and (exists (select 1 from user_locations ul where ul.user_id = u.id and ul.role = 'administrator')
              or exists (select 1 from access_requests ar where ar.user_id = u.id))
          returning u.id`),
      );
      for (const { id } of deleted)
        await recordAudit(tx, {
          actor: 'system',
          action: 'registration.expired',
          target: id,
          outcome: 'success',
          details: { reason: 'unverified_72h' },
        });
    },
  };
}

export const DEMO_CLAIMS_JOB = 'demo-claims-refresh';

/** With demo data on: moves the demo claims' dates forward each day, so the README's combinations keep working. */
export function demoClaimsRefreshJob(intervalMs = 60 * 60_000): Job {
  return {
    name: DEMO_CLAIMS_JOB,
    intervalMs,
    async run(tx) {
      await refreshDemoClaimDates(tx);
    },
  };
}
