import type { IdentityCheck, OpsPerson } from '@portal/contracts/ops';
import type { AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import type { ServiceContext } from '../../identity/service-context';
import { endAllSessions } from '../../identity/sessions/store';
import {
  disableAccount,
  enableAccount,
  lockPersonLocations,
  recipient,
  Refusal,
  resetSecondFactor,
  runAuditedChange,
  unlockAccount,
  type AccountChange,
} from '../admin/service';
import { queueVerificationEmail } from '../registration/service';
import { enqueueEmail } from './emails';
import { personPage } from './people';
import { operatorActor, type Operator, type OpsContext } from './session';

/**
 * The help desk's actions on a person (docs/requirements/help-desk.md#actions). Each takes the operator's reason,
 * runs the same account change an administrator's action runs (modules/admin: the change itself, the locks and the
 * last-administrator rule), is audited with the operator as actor and the reason, emails the person, and answers the
 * person's page as it is now.
 */

export type OpsActionContext = OpsContext & Pick<ServiceContext, 'jobs'>;

/** Runs the change with the operator as actor and their reason audited, then answers the person's page. */
async function act(
  ctx: OpsActionContext,
  operator: Operator,
  userId: string,
  action: string,
  reason: string,
  change: (tx: DbExecutor) => Promise<AccountChange | Refusal>,
  extra: AuditDetails = {},
): Promise<OpsPerson> {
  const actor = operatorActor(operator.operatorId);
  await runAuditedChange(ctx, { actor, action, target: userId, extra: { ...extra, operatorReason: reason } }, change);
  return personPage(ctx, userId);
}

/** The account's locations locked in id order, as every account-wide change takes them; the rule when `disables`. */
function lockAccount(tx: DbExecutor, ctx: OpsContext, operator: Operator, userId: string, disables: boolean) {
  return lockPersonLocations(
    tx,
    { actorId: operatorActor(operator.operatorId), operator: true },
    userId,
    ctx.now(),
    disables,
  );
}

/** Lifts a lockout, past the daily ceiling of wrong passwords too (only the help desk may then). */
export function opsUnlock(ctx: OpsActionContext, operator: Operator, userId: string, reason: string) {
  return act(ctx, operator, userId, 'ops.person.unlock', reason, async (tx) => {
    await lockAccount(tx, ctx, operator, userId, false);
    return unlockAccount(tx, userId, ctx.now(), 'help-desk');
  });
}

/** Ends every session of the person (and their outstanding emailed links, as a sign-out everywhere does). */
export function opsEndSessions(ctx: OpsActionContext, operator: Operator, userId: string, reason: string) {
  return act(ctx, operator, userId, 'ops.person.end-sessions', reason, async (tx) => {
    const user = await recipient(tx, userId);
    const sessionCount = await endAllSessions(tx, userId, { reason: 'sign_out_everywhere' });
    await enqueueEmail(tx, {
      to: user.email,
      template: 'help-desk-sessions-ended',
      data: { firstName: user.firstName },
    });
    return { details: { sessionCount }, email: true };
  });
}

/** Sends a new verification link to an account whose email was never verified (400 `Ops_Not_Unverified` else). */
export function opsResendVerification(ctx: OpsActionContext, operator: Operator, userId: string, reason: string) {
  return act(ctx, operator, userId, 'ops.person.resend-verification', reason, async (tx) => {
    const user = await recipient(tx, userId);
    if (user.status !== 'pending') return new Refusal(400, 'Ops_Not_Unverified', { reason: user.status });
    await queueVerificationEmail(tx, { id: userId, email: user.email, firstName: user.firstName }, ctx.now());
    return { details: {}, email: true };
  });
}

/**
 * Resets the second factor once the operator recorded two identity facts from the fixed list (the schema requires
 * two different ones); the facts' names are audited, never their values. The person enrols again at the next login.
 */
export function opsResetMfa(
  ctx: OpsActionContext,
  operator: Operator,
  userId: string,
  reason: string,
  identityChecks: IdentityCheck[],
) {
  return act(
    ctx,
    operator,
    userId,
    'ops.person.reset-mfa',
    reason,
    async (tx) => {
      await lockAccount(tx, ctx, operator, userId, false);
      return resetSecondFactor(tx, userId, 'help-desk');
    },
    { identityChecks },
  );
}

/** Disables the account (supervisor); a location's last working administrator is not (409 `Last_Administrator`). */
export function opsDisable(ctx: OpsActionContext, operator: Operator, userId: string, reason: string) {
  return act(ctx, operator, userId, 'ops.person.disable', reason, async (tx) => {
    const refusal = await lockAccount(tx, ctx, operator, userId, true);
    if (refusal) return new Refusal(409, refusal, { field: 'status', reason: 'last_administrator' });
    return disableAccount(tx, userId, 'help-desk');
  });
}

/** Enables a disabled account again (supervisor). */
export function opsEnable(ctx: OpsActionContext, operator: Operator, userId: string, reason: string) {
  return act(ctx, operator, userId, 'ops.person.enable', reason, async (tx) => {
    await lockAccount(tx, ctx, operator, userId, false);
    return enableAccount(tx, userId, ctx.now(), 'help-desk');
  });
}
