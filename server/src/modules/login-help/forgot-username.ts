import { emailKey } from '@portal/contracts/fields';
import { usersByEmail } from '../../db/users';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { audit, type ServiceContext } from '../../identity/service-context';
import { emailAllowed } from './shared-steps';
import { loginHelpWork, sameWork } from './work';

/**
 * Forgot username (docs/requirements/portal.md#login-help, docs/decisions/0027): emails the usernames of the accounts
 * with this email and date of birth to the address on file (never the address as typed:
 * docs/requirements/portal.md#field-rules). The caller answers the same either way, and the work is the same: the
 * unmatched path queues the email in a savepoint it rolls back. Audited without the date of birth.
 */
export async function forgotUsername(ctx: ServiceContext, input: { email: string; dob: string }): Promise<void> {
  const { db } = ctx;
  const email = emailKey(input.email);
  const accounts = await usersByEmail(db, email);
  const matched = accounts.filter((a) => a.dob === input.dob);
  const allowed = await emailAllowed(ctx, `forgot-username|${email}`);
  const send = matched.length > 0 && allowed;
  await db.transaction(async (tx) => {
    await sameWork(tx, send, async (sp) => {
      await loginHelpWork.enqueueEmail(sp, {
        to: matched[0]?.email ?? email,
        template: 'username-reminder',
        data: { usernames: matched.length ? matched.map((a) => a.username) : ['-'] },
      });
    });
    await audit(ctx, tx, {
      actor: null,
      action: 'login-help.forgot-username',
      target: matched[0]?.id ?? null,
      outcome: matched.length ? 'success' : 'failure',
      details: matched.length
        ? { count: matched.length, ...(allowed ? {} : { reason: 'email_limit' }) }
        : { reason: 'no_match' },
    });
  });
  if (send) ctx.jobs.kick(OUTBOX_JOB);
}
