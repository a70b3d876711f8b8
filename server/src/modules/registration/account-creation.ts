import { EMAIL_VERIFY_TTL_MS, type SelfRegistrationRequest } from '@portal/contracts/registration';
import type { z } from 'zod/mini';
import { securityAnswers, userLocations, users } from '../../db/schema';
import { usernameTaken, usersByEmail } from '../../db/users';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { consumeLocationToken, issueOneTimeToken, peekLocationToken } from '../../identity/one-time-tokens';
import { passwordProblems } from '../../identity/passwords/policy';
import { rememberPassword } from '../../identity/passwords/history';
import { PortalError } from '../../platform/portal-error';
import { hashSecurityAnswer } from '../../identity/security-answers';
import { requireListedSecurityQuestions } from '../../identity/security-questions';
import { audit, type ServiceContext } from '../../identity/service-context';
import type { DbExecutor } from '../../platform/db-executor';
import { hasAdministrator, lockLocation } from './locations';

/**
 * Registration step 3: the administrator's account, pending until its address is verified
 * (docs/requirements/portal.md#administrator-self-registration; docs/decisions/0025).
 */

type RegistrationInput = z.output<typeof SelfRegistrationRequest>;
/** The account fields both registrations ask for (`accountFields` in the contracts). */
export type AccountInput = Omit<RegistrationInput, 'registrationToken'>;

const USERNAME_UNIQUE_INDEX = 'users_username_lower_key';

function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505' && (e.constraint === constraint || e.constraint === undefined)) return true;
  }
  return false;
}

export type Ctx = Pick<
  ServiceContext,
  'db' | 'now' | 'config' | 'hasher' | 'jobs' | 'securityQuestionKeys' | 'log' | 'client'
>;

/** A refused submission, audited with its reason (never the typed values but the username it was for). */
export function refusal(ctx: Ctx, username: string, reason: string, action = 'registration.submit') {
  return audit(ctx, ctx.db, {
    actor: null,
    action,
    target: username,
    outcome: 'failure',
    details: { reason },
  });
}

/** A username someone already has: the refusal is audited; answers 409 `Username_Taken` (shown next to the field). */
async function usernameTakenRefusal(ctx: Ctx, username: string, action?: string) {
  await refusal(ctx, username, 'username_taken', action);
  return new PortalError(409, 'Username_Taken', { username: ['Username_Taken'] });
}

/**
 * The checks of the account fields that need the server (the CMS's question list, the password blocklist, the
 * usernames taken), before anything is spent or hashed.
 */
export async function checkAccountFields(ctx: Ctx, input: AccountInput, action?: string): Promise<void> {
  // Answers only for questions of the CMS's current list (503 when it cannot be read).
  await requireListedSecurityQuestions(ctx.securityQuestionKeys, input.securityQuestions);
  const problems = passwordProblems(input.password, [input.firstName, input.lastName, input.username, input.email]);
  if (problems.length) throw new PortalError(400, 'Validation_Failed', { password: problems });
  if (await usernameTaken(ctx.db, input.username)) throw await usernameTakenRefusal(ctx, input.username, action);
}

export interface AccountHashes {
  passwordHash: string;
  answerHashes: string[];
}

/** The expensive hashing, before the transaction (in the hasher's threads), so no row is locked while it runs. */
export async function hashAccountSecrets(ctx: Ctx, input: AccountInput): Promise<AccountHashes> {
  const [passwordHash, ...answerHashes] = await Promise.all([
    ctx.hasher.hash(input.password),
    ...input.securityQuestions.map((q) => hashSecurityAnswer(q.answer, ctx.hasher)),
  ]);
  return { passwordHash: passwordHash!, answerHashes };
}

/**
 * Inserts the `pending` account with its password history and security answers, and emails the address its
 * verification link — or, when the address already has an account, a notice instead (the same answer and the same
 * rows either way; the pending account expires unverified). Answers the new user's id.
 */
export async function insertPendingAccount(
  ctx: Ctx,
  tx: DbExecutor,
  input: AccountInput,
  hashes: AccountHashes,
  role: 'administrator' | 'user' = 'administrator',
): Promise<string> {
  const now = ctx.now();
  const [existing] = await usersByEmail(tx, input.email).limit(1);
  const [user] = await tx
    .insert(users)
    .values({
      username: input.username,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      dob: input.dob,
      passwordHash: hashes.passwordHash,
      status: 'pending',
      passwordChangedAt: now,
    })
    .returning({ id: users.id });
  const userId = user!.id;
  await rememberPassword(tx, userId, hashes.passwordHash, ctx.config.passwords.historyCount);
  await tx.insert(securityAnswers).values(
    input.securityQuestions.map((q, i) => ({
      userId,
      questionId: q.questionId,
      answerHash: hashes.answerHashes[i]!,
    })),
  );
  if (existing) {
    await enqueueEmail(tx, {
      to: input.email,
      template: 'registration-email-in-use',
      data: { firstName: existing.firstName },
    });
  } else {
    const verifyToken = await issueOneTimeToken(tx, {
      userId,
      purpose: 'email-verify',
      ttlMs: EMAIL_VERIFY_TTL_MS,
      now,
    });
    await enqueueEmail(tx, {
      to: input.email,
      template: 'verify-email',
      data: { firstName: input.firstName, token: verifyToken, ...(role === 'user' ? { role } : {}) },
    });
  }
  return userId;
}

/** Maps what a registration's transaction threw: refusals audited, a username race answered as `Username_Taken`. */
export async function registrationFailure(ctx: Ctx, input: AccountInput, err: unknown, action?: string) {
  if (err instanceof PortalError) {
    await refusal(ctx, input.username, err.code.toLowerCase(), action);
    return err;
  }
  // Two registrations choosing one username at the same moment: the unique index decides.
  if (isUniqueViolation(err, USERNAME_UNIQUE_INDEX)) return usernameTakenRefusal(ctx, input.username, action);
  return err;
}

export async function registerAdministrator(ctx: Ctx, input: RegistrationInput): Promise<void> {
  const { db } = ctx;
  const now = ctx.now();

  await checkAccountFields(ctx, input);

  // A token that cannot be used costs no hashing (the transaction below still decides, atomically).
  if (!(await peekLocationToken(db, { token: input.registrationToken, purpose: 'registration', now }))) {
    await refusal(ctx, input.username, 'registration_token_invalid');
    throw new PortalError(400, 'Registration_Token_Invalid');
  }

  const hashes = await hashAccountSecrets(ctx, input);

  let outcome: { userId: string; locationId: string };
  try {
    outcome = await db.transaction(async (tx) => {
      const token = await consumeLocationToken(tx, { token: input.registrationToken, purpose: 'registration', now });
      if (!token) throw new PortalError(400, 'Registration_Token_Invalid');
      // The location's row lock serialises registrations for it: the second waits, then sees the first's link.
      await lockLocation(tx, token.locationId);
      if (await hasAdministrator(tx, token.locationId)) throw new PortalError(409, 'Location_Has_Administrator');

      const userId = await insertPendingAccount(ctx, tx, input, hashes);
      await tx.insert(userLocations).values({ userId, locationId: token.locationId, role: 'administrator' });
      await audit(ctx, tx, {
        actor: userId,
        action: 'registration.submit',
        target: userId,
        outcome: 'success',
        details: { locationId: token.locationId },
      });
      return { userId, locationId: token.locationId };
    });
  } catch (err) {
    throw await registrationFailure(ctx, input, err);
  }
  ctx.log.info(
    { userId: outcome.userId, locationId: outcome.locationId },
    'administrator registered (pending verification)',
  );
  ctx.jobs.kick(OUTBOX_JOB);
}
