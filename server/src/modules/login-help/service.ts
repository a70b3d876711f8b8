import {
  LOGIN_HELP_MAX_WRONG_ANSWERS,
  REACTIVATION_CODE_TTL_MS,
  RESET_TOKEN_TTL_MS,
  type ForgotPasswordNext,
  type SelfReactivationNext,
} from '@portal/contracts/login-help';
import { emailKey, sameEmail } from '@portal/contracts/fields';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { securityAnswers, users } from '../../db/schema';
import { recordAudit, unknownUsernameTarget, type AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import {
  consumeOneTimeToken,
  countTokenAttempt,
  peekOneTimeToken,
  type OneTimeTokenPurpose,
} from '../../platform/one-time-tokens';
import { newPasswordProblems, passkeyNames } from '../../platform/password-change';
import { rememberPassword } from '../../platform/password-hashing';
import { PortalError } from '../../platform/portal-error';
import { countAttempt } from '../../platform/rate-limit';
import { verifySecurityAnswer } from '../../platform/security-answers';
import { endAllSessions } from '../../platform/session';
import { serviceContext } from '../../platform/service-context';
import {
  loginHelpWork,
  normaliseReactivationCode,
  NO_USER_ID,
  questionFor,
  reactivationCodeToken,
  REACTIVATION_CODE_DIGITS,
  sameWork,
} from './work';

/**
 * Login help (docs/requirements/portal.md#login-help, docs/decisions/0027). The lookups that may or may not match an
 * account answer the same and do the same work either way; what differs is only whether the savepoint holding the
 * token and the outbox row is kept. Every attempt writes an audit event: never a DOB, answer, code or password.
 */

type User = typeof users.$inferSelect;
const HOUR_MS = 60 * 60 * 1000;

function audit(
  request: FastifyRequest,
  db: DbExecutor,
  event: { action: string; target?: string | null; outcome: 'success' | 'failure'; details?: AuditDetails },
) {
  return recordAudit(db, { actor: null, ...event, ip: request.ip, requestId: request.id });
}

async function userByUsername(db: DbExecutor, username: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()));
  return user;
}

/**
 * Counts one emailed message for the account named by `key` (known or not: the count is the same work) and answers
 * whether the hourly allowance still has room. Over it the answer stays the same; no email is sent.
 */
async function emailAllowed(request: FastifyRequest, key: string): Promise<boolean> {
  const { count } = await countAttempt(request.server.database.db, key, HOUR_MS);
  return count <= request.server.config.loginHelp.resetEmailsPerHour;
}

// ——— Forgot username ———

/**
 * Emails the usernames of the accounts with this email and date of birth to the address on file (never the address
 * as typed: docs/requirements/portal.md#field-rules); the caller answers the same either way.
 */
export async function forgotUsername(request: FastifyRequest, input: { email: string; dob: string }): Promise<void> {
  const { db } = request.server.database;
  const email = emailKey(input.email);
  const accounts = await db
    .select({ id: users.id, username: users.username, dob: users.dob, email: users.email })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email));
  const matched = accounts.filter((a) => a.dob === input.dob);
  const allowed = await emailAllowed(request, `forgot-username|${email}`);
  const send = matched.length > 0 && allowed;
  await db.transaction(async (tx) => {
    await sameWork(tx, send, async (sp) => {
      await loginHelpWork.enqueueEmail(sp, {
        to: matched[0]?.email ?? email,
        template: 'username-reminder',
        data: { usernames: matched.length ? matched.map((a) => a.username) : ['-'] },
      });
    });
    await audit(request, tx, {
      action: 'login-help.forgot-username',
      target: matched[0]?.id ?? null,
      outcome: matched.length ? 'success' : 'failure',
      details: matched.length
        ? { count: matched.length, ...(allowed ? {} : { reason: 'email_limit' }) }
        : { reason: 'no_match' },
    });
  });
  if (send) request.server.jobs.kick(OUTBOX_JOB);
}

// ——— Forgot password ———

/** Only external, active accounts get a reset link; internal ones reset through the enterprise directory. */
export async function forgotPassword(
  request: FastifyRequest,
  input: { username: string; email: string; isInternal: boolean },
): Promise<ForgotPasswordNext> {
  const { database, clock } = request.server;
  const { db } = database;
  if (input.isInternal) {
    await audit(request, db, {
      action: 'login-help.forgot-password',
      target: unknownUsernameTarget(request.server.secrets.encryptionKey, input.username),
      outcome: 'failure',
      details: { reason: 'internal_user' },
    });
    return 'enterprise-directory';
  }
  const user = await userByUsername(db, input.username);
  const matched = user && sameEmail(user.email, input.email) && !user.isInternal && user.status === 'active';
  const allowed = await emailAllowed(request, `forgot-password|${input.username.toLowerCase()}`);
  const send = Boolean(matched) && allowed;
  const now = clock();
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
        : user.isInternal
          ? 'internal_account'
          : user.status !== 'active'
            ? `status_${user.status}`
            : !allowed
              ? 'email_limit'
              : undefined;
    await audit(request, tx, {
      action: 'login-help.forgot-password',
      target: user?.id ?? unknownUsernameTarget(request.server.secrets.encryptionKey, input.username),
      outcome: send ? 'success' : 'failure',
      ...(reason ? { details: { reason } } : {}),
    });
  });
  if (send) request.server.jobs.kick(OUTBOX_JOB);
  // The same answer whether or not a link was sent.
  return 'check-email';
}

// ——— Shared by reset and reactivation ———

async function questionIdsOf(db: DbExecutor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ questionId: securityAnswers.questionId })
    .from(securityAnswers)
    .where(eq(securityAnswers.userId, userId));
  return rows.map((r) => r.questionId);
}

/**
 * Checks the answer to the question fixed by `token`. A wrong one is counted on the user's token of `purpose`; at
 * the limit that token is spent (`Security_Answer_Attempts_Exceeded`), so answers cannot be guessed one by one.
 */
async function checkAnswer(
  request: FastifyRequest,
  user: User,
  token: string,
  answer: string,
  purpose: OneTimeTokenPurpose,
  action: string,
): Promise<void> {
  const { db } = request.server.database;
  const questionId = questionFor(await questionIdsOf(db, user.id), token);
  const [stored] = questionId
    ? await db
        .select({ answerHash: securityAnswers.answerHash })
        .from(securityAnswers)
        .where(sql`${securityAnswers.userId} = ${user.id} and ${securityAnswers.questionId} = ${questionId}`)
    : [];
  const ok = stored
    ? await verifySecurityAnswer(stored.answerHash, answer, request.server.passwordHasher)
    : await request.server.passwordHasher.verifyDummy(answer);
  if (ok) return;
  const exceeded = await db.transaction(async (tx) => {
    const attempts = await countTokenAttempt(tx, {
      userId: user.id,
      purpose,
      maxAttempts: LOGIN_HELP_MAX_WRONG_ANSWERS,
    });
    const over = attempts >= LOGIN_HELP_MAX_WRONG_ANSWERS;
    await audit(request, tx, {
      action,
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
async function newPasswordHash(request: FastifyRequest, user: User, password: string, action: string) {
  const problems = await newPasswordProblems(serviceContext(request), user, password);
  const code = problems[0];
  if (code) {
    await audit(request, request.server.database.db, {
      action,
      target: user.id,
      outcome: 'failure',
      details: { reason: code },
    });
    throw new PortalError(400, code, { newPassword: problems });
  }
  return request.server.passwordHasher.hash(password);
}

// ——— Reset password ———

const resetTokenInvalid = () => new PortalError(400, 'Reset_Token_Invalid');

async function resetTokenUser(request: FastifyRequest, token: string): Promise<User> {
  const { database, clock } = request.server;
  const peeked = await peekOneTimeToken(database.db, { token, purpose: 'password-reset', now: clock() });
  const user = peeked ? (await database.db.select().from(users).where(eq(users.id, peeked.userId)))[0] : undefined;
  if (!user || user.status !== 'active' || user.isInternal) {
    await audit(request, database.db, {
      action: 'login-help.reset-password',
      target: user?.id ?? null,
      outcome: 'failure',
      details: { reason: user ? `status_${user.status}` : 'token_invalid' },
    });
    throw resetTokenInvalid();
  }
  return user;
}

/** Step 1: the question to ask (the token stays usable). */
export async function resetPasswordQuestion(request: FastifyRequest, token: string): Promise<string> {
  const user = await resetTokenUser(request, token);
  const questionId = questionFor(await questionIdsOf(request.server.database.db, user.id), token);
  if (!questionId) {
    // An account without security answers cannot reset by email alone: answers are the second factor here.
    await audit(request, request.server.database.db, {
      action: 'login-help.reset-password',
      target: user.id,
      outcome: 'failure',
      details: { reason: 'no_security_answers' },
    });
    throw resetTokenInvalid();
  }
  return questionId;
}

/** Step 2: answer + new password → set, token used, every session ended, notice emailed. */
export async function resetPassword(
  request: FastifyRequest,
  input: { token: string; answer: string; newPassword: string },
): Promise<void> {
  const action = 'login-help.reset-password';
  const user = await resetTokenUser(request, input.token);
  await checkAnswer(request, user, input.token, input.answer, 'password-reset', action);
  const hash = await newPasswordHash(request, user, input.newPassword, action);
  await setPassword(request, user, hash, {
    action,
    consume: (tx, now) => consumeOneTimeToken(tx, { token: input.token, purpose: 'password-reset', now }),
    invalid: resetTokenInvalid,
    fromStatus: 'active',
    notice: 'password-changed',
  });
}

/**
 * Sets the password in one transaction: the token or code is used (exactly one of two racing calls gets it), the
 * status becomes active, failed-login counters clear, the history remembers it, every session ends, a notice is queued.
 */
async function setPassword(
  request: FastifyRequest,
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
  const { database, clock, config } = request.server;
  const now = clock();
  const done = await database.db.transaction(async (tx) => {
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
      .where(sql`${users.id} = ${user.id} and ${users.status} = ${step.fromStatus}`)
      .returning({ id: users.id });
    if (!updated) return false;
    await rememberPassword(tx, user.id, hash, config.passwords.historyCount);
    const sessionCount = await endAllSessions(tx, user.id);
    await audit(request, tx, {
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
    await audit(request, database.db, {
      action: step.action,
      target: user.id,
      outcome: 'failure',
      details: { reason: 'token_used' },
    });
    throw step.invalid();
  }
  request.server.jobs.kick(OUTBOX_JOB);
}

// ——— Self-reactivation ———

const REACTIVATION_ACTION = 'account.reactivation';
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
  request: FastifyRequest,
  input: { username: string; dob: string },
): Promise<SelfReactivationNext> {
  const { database, clock } = request.server;
  const { db } = database;
  const user = await userByUsername(db, input.username);
  const matched = user && user.dob === input.dob && isReactivationStatus(user.status) ? user : undefined;
  const allowed = await emailAllowed(request, `reactivation|${input.username.toLowerCase()}`);
  const send = Boolean(matched) && allowed;
  const now = clock();
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
          status: matched?.isInternal
            ? 'internal'
            : matched && isReactivationStatus(matched.status)
              ? matched.status
              : 'disabled_inactive',
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
    await audit(request, tx, {
      action: REACTIVATION_ACTION,
      target: user?.id ?? unknownUsernameTarget(request.server.secrets.encryptionKey, input.username),
      outcome: send ? 'success' : 'failure',
      details: { reason: reason ?? 'code_sent' },
    });
  });
  if (send) request.server.jobs.kick(OUTBOX_JOB);
  return 'enter-code';
}

/**
 * The account named by `username` whose current code is `code` (not used up). A wrong code counts against the
 * user's code (at the limit it is spent); an unknown username runs the same statements against no row.
 */
async function reactivationUser(
  request: FastifyRequest,
  input: { username: string; code: string },
): Promise<{ user: User; token: string }> {
  const { database, clock } = request.server;
  const { db } = database;
  const user = await userByUsername(db, input.username);
  const code = normaliseReactivationCode(input.code);
  const token = reactivationCodeToken(user?.id ?? NO_USER_ID, code);
  const wellFormed = new RegExp(`^\\d{${REACTIVATION_CODE_DIGITS}}$`).test(code);
  const peeked = wellFormed ? await peekOneTimeToken(db, { token, purpose: 'reactivation', now: clock() }) : null;
  if (!user || !peeked) {
    // One transaction either way: a counted attempt on a real code and the audit row commit (and flush) together.
    await db.transaction(async (tx) => {
      const attempts = await countTokenAttempt(tx, {
        userId: user?.id ?? NO_USER_ID,
        purpose: 'reactivation',
        maxAttempts: LOGIN_HELP_MAX_WRONG_ANSWERS,
      });
      await audit(request, tx, {
        action: REACTIVATION_ACTION,
        target: user?.id ?? unknownUsernameTarget(request.server.secrets.encryptionKey, input.username),
        outcome: 'failure',
        details: { reason: 'code_invalid', count: attempts },
      });
    });
    throw codeInvalid();
  }
  // Only the account holder (who read the code in their mailbox) learns that the account cannot be reactivated here.
  if (user.isInternal) {
    // Contractor staff: the password belongs to the enterprise directory; the portal never sets one.
    await audit(request, db, {
      action: REACTIVATION_ACTION,
      target: user.id,
      outcome: 'failure',
      details: { reason: 'internal_account' },
    });
    throw new PortalError(403, 'Internal_User_Use_Enterprise_Directory');
  }
  if (user.status === 'locked' || user.status === 'disabled_admin') {
    await audit(request, db, {
      action: REACTIVATION_ACTION,
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
  request: FastifyRequest,
  input: { username: string; code: string },
): Promise<string> {
  const { user, token } = await reactivationUser(request, input);
  const questionId = questionFor(await questionIdsOf(request.server.database.db, user.id), token);
  if (!questionId) {
    await audit(request, request.server.database.db, {
      action: REACTIVATION_ACTION,
      target: user.id,
      outcome: 'failure',
      details: { reason: 'no_security_answers' },
    });
    throw codeInvalid();
  }
  return questionId;
}

/** Step 3: the code + the answer (nothing used up yet, so the password step can follow). */
export async function verifyReactivationAnswer(
  request: FastifyRequest,
  input: { username: string; code: string; answer: string },
): Promise<void> {
  const { user, token } = await reactivationUser(request, input);
  await checkAnswer(request, user, token, input.answer, 'reactivation', REACTIVATION_ACTION);
}

/** Step 4: the code + the answer again + the new password → active; the next login still needs the authenticator. */
export async function completeReactivation(
  request: FastifyRequest,
  input: { username: string; code: string; answer: string; newPassword: string },
): Promise<void> {
  const { user, token } = await reactivationUser(request, input);
  await checkAnswer(request, user, token, input.answer, 'reactivation', REACTIVATION_ACTION);
  const hash = await newPasswordHash(request, user, input.newPassword, REACTIVATION_ACTION);
  await setPassword(request, user, hash, {
    action: REACTIVATION_ACTION,
    consume: (tx, now) => consumeOneTimeToken(tx, { token, purpose: 'reactivation', now }),
    invalid: codeInvalid,
    fromStatus: 'disabled_inactive',
    notice: 'account-reactivated',
  });
}
