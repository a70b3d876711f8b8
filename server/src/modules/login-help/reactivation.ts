import {
  LOGIN_HELP_MAX_WRONG_ANSWERS,
  REACTIVATION_CODE_TTL_MS,
  type SelfReactivationNext,
} from '@portal/contracts/login-help';
import { userByUsername, usernameKey, type User } from '../../db/users';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { consumeOneTimeToken, countTokenAttempt, peekOneTimeToken } from '../../identity/one-time-tokens';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { auditAttempt, checkAnswer, emailAllowed, newPasswordHash, questionToAsk, setPassword } from './shared-steps';
import {
  loginHelpWork,
  normaliseReactivationCode,
  NO_USER_ID,
  reactivationCodeToken,
  REACTIVATION_CODE_DIGITS,
  sameWork,
} from './equal-work';

/**
 * Self-reactivation (docs/requirements/portal.md#self-reactivation, docs/decisions/0027) in four steps: username +
 * date of birth → an emailed code; the code → a security question; the answer; the answer again + a new password →
 * active. The first step answers the same for every input; a wrong code or answer counts against the user's code.
 * Every attempt writes an audit event: never a date of birth, code, answer or password.
 */

const ACTION = 'account.reactivation';
const reactivatable = ['disabled_inactive', 'locked', 'disabled_admin'] as const;
type ReactivationStatus = (typeof reactivatable)[number];
const isReactivationStatus = (status: User['status']): status is ReactivationStatus =>
  (reactivatable as readonly string[]).includes(status);
const codeInvalid = () => new PortalError(400, 'Reactivation_Code_Invalid', { code: ['Reactivation_Code_Invalid'] });

/**
 * Step 1: username + dob. An account that matches and is disabled (for inactivity, by an administrator) or locked gets
 * an emailed code; the answer is the same for every input (docs/decisions/0027).
 */
export async function requestReactivationCode(
  ctx: ServiceContext,
  input: { username: string; dob: string },
): Promise<SelfReactivationNext> {
  const { db } = ctx;
  const user = await userByUsername(db, input.username);
  const matched = user && user.dob === input.dob && isReactivationStatus(user.status) ? user : undefined;
  const allowed = await emailAllowed(ctx, `reactivation|${usernameKey(input.username)}`);
  const send = Boolean(matched) && allowed;
  const now = ctx.now();
  await db.transaction(async (tx) => {
    await sameWork(tx, send, async (sp) => {
      const code = await loginHelpWork.issueReactivationCode(
        sp,
        send ? matched!.id : NO_USER_ID,
        REACTIVATION_CODE_TTL_MS,
        now,
      );
      await loginHelpWork.enqueueEmail(sp, {
        to: matched?.email ?? user?.email ?? 'nobody@invalid',
        template: 'reactivation-code',
        data: {
          firstName: matched?.firstName ?? '-',
          code,
          expiresAt: new Date(now.getTime() + REACTIVATION_CODE_TTL_MS).toISOString(),
          status: matched && isReactivationStatus(matched.status) ? matched.status : 'disabled_inactive',
        },
      });
    });
    const reason = !user
      ? 'unknown_user'
      : user.dob !== input.dob
        ? 'dob_mismatch'
        : !matched
          ? `status_${user.status}`
          : !allowed
            ? 'email_limit'
            : undefined;
    await auditAttempt(ctx, tx, {
      action: ACTION,
      userId: user?.id,
      username: input.username,
      sent: send,
      details: { reason: reason ?? 'code_sent' },
    });
  });
  if (send) ctx.jobs.kick(OUTBOX_JOB);
  return 'enter-code';
}

/**
 * The account named by `username` whose current code is `code` (not used up). A wrong code counts against the
 * user's code (at the limit it is spent); an unknown username runs the same statements against no row.
 */
async function reactivationUser(
  ctx: ServiceContext,
  input: { username: string; code: string },
): Promise<{ user: User; token: string }> {
  const { db } = ctx;
  const user = await userByUsername(db, input.username);
  const code = normaliseReactivationCode(input.code);
  const token = reactivationCodeToken(user?.id ?? NO_USER_ID, code);
  const wellFormed = new RegExp(`^\\d{${REACTIVATION_CODE_DIGITS}}$`).test(code);
  const peeked = wellFormed ? await peekOneTimeToken(db, { token, purpose: 'reactivation', now: ctx.now() }) : null;
  if (!user || !peeked) {
    // One transaction either way: a counted attempt on a real code and the audit row commit (and flush) together.
    await db.transaction(async (tx) => {
      const attempts = await countTokenAttempt(tx, {
        userId: user?.id ?? NO_USER_ID,
        purpose: 'reactivation',
        maxAttempts: LOGIN_HELP_MAX_WRONG_ANSWERS,
      });
      await auditAttempt(ctx, tx, {
        action: ACTION,
        userId: user?.id,
        username: input.username,
        sent: false,
        details: { reason: 'code_invalid', count: attempts },
      });
    });
    throw codeInvalid();
  }
  // Only the account holder (who read the code in their mailbox) learns that the account cannot be reactivated here.
  if (user.status === 'locked' || user.status === 'disabled_admin') {
    await audit(ctx, db, {
      actor: null,
      action: ACTION,
      target: user.id,
      outcome: 'failure',
      details: { reason: `status_${user.status}` },
    });
    throw new PortalError(
      403,
      user.status === 'locked'
        ? 'Reactivation_Locked_Contact_Help_Desk'
        : 'Reactivation_Disabled_Contact_Administrator',
    );
  }
  if (user.status !== 'disabled_inactive') throw codeInvalid();
  return { user, token };
}

/** Step 2: the code → the question to ask. */
export async function verifyReactivationCode(
  ctx: ServiceContext,
  input: { username: string; code: string },
): Promise<string> {
  const { user, token } = await reactivationUser(ctx, input);
  return questionToAsk(ctx, user, { token, action: ACTION, refused: codeInvalid });
}

/** Step 3: the code + the answer (nothing used up yet, so the password step can follow). */
export async function verifyReactivationAnswer(
  ctx: ServiceContext,
  input: { username: string; code: string; answer: string },
): Promise<void> {
  const { user, token } = await reactivationUser(ctx, input);
  await checkAnswer(ctx, user, { token, answer: input.answer, purpose: 'reactivation', action: ACTION });
}

/** Step 4: the code + the answer again + the new password → active; the next login still needs the authenticator. */
export async function completeReactivation(
  ctx: ServiceContext,
  input: { username: string; code: string; answer: string; newPassword: string },
): Promise<void> {
  const { user, token } = await reactivationUser(ctx, input);
  await checkAnswer(ctx, user, { token, answer: input.answer, purpose: 'reactivation', action: ACTION });
  const hash = await newPasswordHash(ctx, user, input.newPassword, ACTION);
  await setPassword(ctx, user, hash, {
    action: ACTION,
    consume: (tx, now) => consumeOneTimeToken(tx, { token, purpose: 'reactivation', now }),
    invalid: codeInvalid,
    fromStatus: 'disabled_inactive',
    notice: 'account-reactivated',
  });
}
