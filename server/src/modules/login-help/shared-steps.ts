import { LOGIN_HELP_MAX_WRONG_ANSWERS } from '@portal/contracts/login-help';
import { and, eq } from 'drizzle-orm';
import { securityAnswers, users } from '../../db/schema';
import type { User } from '../../db/users';
import type { AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { countTokenAttempt, type OneTimeTokenPurpose } from '../../identity/one-time-tokens';
import { newPasswordProblems, passkeyNames } from '../../identity/passwords/change';
import { rememberPassword } from '../../identity/passwords/history';
import { PortalError } from '../../platform/portal-error';
import { countAttempt } from '../../platform/rate-limit';
import { securityAnswerHash, verifySecurityAnswer } from '../../identity/security-answers';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions } from '../../identity/sessions/store';
import { unknownUsernameTarget } from '../../identity/unknown-username';
import { loginHelpWork, questionFor } from './equal-work';

/**
 * The steps the login-help flows share (docs/requirements/portal.md#login-help): the hourly email allowance, the
 * security-answer check with its wrong-answer limit, and setting the new password. The flows are in
 * forgot-username.ts, forgot-password.ts and reactivation.ts.
 */

const HOUR_MS = 60 * 60 * 1000;

/**
 * Audits one attempt of a login-help flow, whoever asked: the account as target when the typed username has one, else
 * the name's keyed fingerprint (identity/unknown-username.ts), never the text typed.
 */
export function auditAttempt(
  ctx: Pick<ServiceContext, 'client' | 'secrets'>,
  db: DbExecutor,
  attempt: { action: string; userId?: string; username: string; sent: boolean; details?: AuditDetails },
): Promise<void> {
  return audit(ctx, db, {
    actor: null,
    action: attempt.action,
    target: attempt.userId ?? unknownUsernameTarget(ctx.secrets.encryptionKey, attempt.username),
    outcome: attempt.sent ? 'success' : 'failure',
    ...(attempt.details ? { details: attempt.details } : {}),
  });
}

/**
 * Counts one emailed message for the account named by `key` (known or not: the count is the same work) and answers
 * whether the hourly allowance still has room. Over it the answer stays the same; no email is sent.
 */
export async function emailAllowed(ctx: Pick<ServiceContext, 'db' | 'config'>, key: string): Promise<boolean> {
  const { count } = await countAttempt(ctx.db, key, HOUR_MS);
  return count <= ctx.config.loginHelp.resetEmailsPerHour;
}

/** The keys of the questions the user has answered. */
export async function questionIdsOf(db: DbExecutor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ questionId: securityAnswers.questionId })
    .from(securityAnswers)
    .where(eq(securityAnswers.userId, userId));
  return rows.map((r) => r.questionId);
}

/**
 * The security question a reset or a reactivation asks, chosen by the token. An account without security answers
 * cannot go on by email alone (answers are the second factor here): the refusal is audited and `refused` is thrown.
 */
export async function questionToAsk(
  ctx: ServiceContext,
  user: Pick<User, 'id'>,
  step: { token: string; action: string; refused: () => PortalError },
): Promise<string> {
  const questionId = questionFor(await questionIdsOf(ctx.db, user.id), step.token);
  if (questionId) return questionId;
  await audit(ctx, ctx.db, {
    actor: null,
    action: step.action,
    target: user.id,
    outcome: 'failure',
    details: { reason: 'no_security_answers' },
  });
  throw step.refused();
}

/**
 * Checks the answer to the question fixed by `token`. A wrong one is counted on the user's token of `purpose`; at
 * the limit that token is spent (`Security_Answer_Attempts_Exceeded`), so answers cannot be guessed one by one.
 */
export async function checkAnswer(
  ctx: Pick<ServiceContext, 'db' | 'hasher' | 'client'>,
  user: User,
  step: { token: string; answer: string; purpose: OneTimeTokenPurpose; action: string },
): Promise<void> {
  const { db, hasher } = ctx;
  const questionId = questionFor(await questionIdsOf(db, user.id), step.token);
  const stored = questionId ? await securityAnswerHash(db, user.id, questionId) : null;
  // No stored answer still costs one argon2 verification, so the answer takes as long either way.
  const ok = stored ? await verifySecurityAnswer(stored, step.answer, hasher) : await hasher.verifyDummy(step.answer);
  if (ok) return;
  const exceeded = await db.transaction(async (tx) => {
    const attempts = await countTokenAttempt(tx, {
      userId: user.id,
      purpose: step.purpose,
      maxAttempts: LOGIN_HELP_MAX_WRONG_ANSWERS,
    });
    const over = attempts >= LOGIN_HELP_MAX_WRONG_ANSWERS;
    await audit(ctx, tx, {
      actor: null,
      action: step.action,
      target: user.id,
      outcome: 'failure',
      details: { reason: over ? 'answer_attempts_exceeded' : 'wrong_answer', count: attempts },
    });
    return over;
  });
  if (exceeded) throw new PortalError(400, 'Security_Answer_Attempts_Exceeded');
  throw new PortalError(400, 'Security_Answer_Incorrect', { answer: ['Security_Answer_Incorrect'] });
}

/** The new password under the policy and the history rule; answers its hash. */
export async function newPasswordHash(
  ctx: Pick<ServiceContext, 'db' | 'hasher' | 'config' | 'client'>,
  user: User,
  password: string,
  action: string,
): Promise<string> {
  const problems = await newPasswordProblems(ctx, user, password);
  const code = problems[0];
  if (code) {
    await audit(ctx, ctx.db, { actor: null, action, target: user.id, outcome: 'failure', details: { reason: code } });
    throw new PortalError(400, code, { newPassword: problems });
  }
  return ctx.hasher.hash(password);
}

/**
 * Sets the password in one transaction: the token or code is used (exactly one of two racing calls gets it), the
 * status becomes active, failed-login counters clear, the history remembers it, every session ends, a notice is queued.
 */
export async function setPassword(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config' | 'jobs' | 'client'>,
  user: User,
  hash: string,
  step: {
    action: string;
    consume: (tx: DbExecutor, now: Date) => Promise<{ userId: string } | null>;
    invalid: () => PortalError;
    fromStatus: User['status'];
    notice: 'password-changed' | 'account-reactivated';
  },
): Promise<void> {
  const { db, config } = ctx;
  const now = ctx.now();
  const done = await db.transaction(async (tx) => {
    const used = await step.consume(tx, now);
    if (used?.userId !== user.id) return false;
    const [updated] = await tx
      .update(users)
      .set({
        passwordHash: hash,
        passwordChangedAt: now,
        status: 'active',
        failedLoginCount: 0,
        failedLoginFirstAt: null,
        lockedUntil: null,
      })
      .where(and(eq(users.id, user.id), eq(users.status, step.fromStatus)))
      .returning({ id: users.id });
    if (!updated) return false;
    await rememberPassword(tx, user.id, hash, config.passwords.historyCount);
    const sessionCount = await endAllSessions(tx, user.id);
    await audit(ctx, tx, {
      actor: null,
      action: step.action,
      target: user.id,
      outcome: 'success',
      details: { sessionCount, field: 'password' },
    });
    if (step.notice === 'password-changed')
      await loginHelpWork.enqueueEmail(tx, {
        to: user.email,
        template: step.notice,
        data: { firstName: user.firstName, passkeys: await passkeyNames(tx, user.id) },
      });
    else
      await loginHelpWork.enqueueEmail(tx, {
        to: user.email,
        template: step.notice,
        data: { firstName: user.firstName },
      });
    return true;
  });
  if (!done) {
    await audit(ctx, db, {
      actor: null,
      action: step.action,
      target: user.id,
      outcome: 'failure',
      details: { reason: 'token_used' },
    });
    throw step.invalid();
  }
  ctx.jobs.kick(OUTBOX_JOB);
}
