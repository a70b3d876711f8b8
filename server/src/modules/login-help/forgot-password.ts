import { sameEmail } from '@portal/contracts/fields';
import { RESET_TOKEN_TTL_MS, type ForgotPasswordNext } from '@portal/contracts/login-help';
import { userById, userByUsername, usernameKey, type User } from '../../db/users';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { consumeOneTimeToken, peekOneTimeToken } from '../../identity/one-time-tokens';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { auditAttempt, checkAnswer, emailAllowed, newPasswordHash, questionToAsk, setPassword } from './shared-steps';
import { loginHelpWork, sameWork } from './equal-work';

/**
 * Forgot password and the reset from the emailed link (docs/requirements/portal.md#login-help, docs/decisions/0027):
 * the request answers the same and does the same work whether or not an account matched; the reset asks one of the
 * user's security questions (fixed by the token), then sets the new password, ends every session and emails a notice.
 * Every attempt writes an audit event: never an answer, token or password.
 */

const ACTION = 'login-help.reset-password';

/**
 * Only active accounts get a reset link. Contractor staff hold no portal account (they are operators from the
 * enterprise directory): the "I am an internal user" choice sends them there, with no lookup.
 */
export async function forgotPassword(
  ctx: ServiceContext,
  input: { username: string; email: string; isInternal: boolean },
): Promise<ForgotPasswordNext> {
  const { db } = ctx;
  if (input.isInternal) {
    await auditAttempt(ctx, db, {
      action: 'login-help.forgot-password',
      username: input.username,
      sent: false,
      details: { reason: 'internal_user' },
    });
    return 'enterprise-directory';
  }
  const user = await userByUsername(db, input.username);
  const matched = user && sameEmail(user.email, input.email) && user.status === 'active';
  const allowed = await emailAllowed(ctx, `forgot-password|${usernameKey(input.username)}`);
  const send = Boolean(matched) && allowed;
  const now = ctx.now();
  await db.transaction(async (tx) => {
    await sameWork(tx, send, async (sp) => {
      const token = send
        ? await loginHelpWork.issueResetToken(sp, user!.id, RESET_TOKEN_TTL_MS, now)
        : await loginHelpWork.drawUnusedToken(sp, now);
      await loginHelpWork.enqueueEmail(sp, {
        to: user?.email ?? input.email,
        template: 'password-reset-link',
        data: {
          firstName: user?.firstName ?? '-',
          token,
          expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS).toISOString(),
        },
      });
    });
    const reason = !user
      ? 'unknown_user'
      : !sameEmail(user.email, input.email)
        ? 'email_mismatch'
        : user.status !== 'active'
          ? `status_${user.status}`
          : !allowed
            ? 'email_limit'
            : undefined;
    await auditAttempt(ctx, tx, {
      action: 'login-help.forgot-password',
      userId: user?.id,
      username: input.username,
      sent: send,
      ...(reason ? { details: { reason } } : {}),
    });
  });
  if (send) ctx.jobs.kick(OUTBOX_JOB);
  // The same answer whether or not a link was sent.
  return 'check-email';
}

const resetTokenInvalid = () => new PortalError(400, 'Reset_Token_Invalid');

/** The active account a live reset token belongs to. */
async function resetTokenUser(ctx: ServiceContext, token: string): Promise<User> {
  const { db } = ctx;
  const peeked = await peekOneTimeToken(db, { token, purpose: 'password-reset', now: ctx.now() });
  const user = peeked ? await userById(db, peeked.userId) : undefined;
  if (!user || user.status !== 'active') {
    await audit(ctx, db, {
      actor: null,
      action: ACTION,
      target: user?.id ?? null,
      outcome: 'failure',
      details: { reason: user ? `status_${user.status}` : 'token_invalid' },
    });
    throw resetTokenInvalid();
  }
  return user;
}

/** Reset step 1: the question to ask (the token stays usable). */
export async function resetPasswordQuestion(ctx: ServiceContext, token: string): Promise<string> {
  const user = await resetTokenUser(ctx, token);
  return questionToAsk(ctx, user, { token, action: ACTION, refused: resetTokenInvalid });
}

/** Reset step 2: answer + new password → set, token used, every session ended, notice emailed. */
export async function resetPassword(
  ctx: ServiceContext,
  input: { token: string; answer: string; newPassword: string },
): Promise<void> {
  const user = await resetTokenUser(ctx, input.token);
  await checkAnswer(ctx, user, { token: input.token, answer: input.answer, purpose: 'password-reset', action: ACTION });
  const hash = await newPasswordHash(ctx, user, input.newPassword, ACTION);
  await setPassword(ctx, user, hash, {
    action: ACTION,
    consume: (tx, now) => consumeOneTimeToken(tx, { token: input.token, purpose: 'password-reset', now }),
    invalid: resetTokenInvalid,
    fromStatus: 'active',
    notice: 'password-changed',
  });
}
