import { EMAIL_VERIFY_TTL_MS, type SelfRegistrationRequest } from '@portal/contracts/registration';
import type { z } from 'zod/mini';
import { securityAnswers, userLocations, users } from '../../db/schema';
import { usernameTaken, usersByEmail } from '../../db/users';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import { consumeLocationToken, issueOneTimeToken, peekLocationToken } from '../../platform/one-time-tokens';
import { passwordProblems, rememberPassword } from '../../platform/password-hashing';
import { PortalError } from '../../platform/portal-error';
import { hashSecurityAnswer } from '../../platform/security-answers';
import { requireListedSecurityQuestions } from '../../platform/security-questions';
import { audit, type ServiceContext } from '../../platform/service-context';
import { hasAdministrator, lockLocation } from './locations';

/**
 * Registration step 3: the administrator's account, pending until its address is verified
 * (docs/requirements/portal.md#administrator-self-registration; docs/decisions/0025).
 */

type RegistrationInput = z.output<typeof SelfRegistrationRequest>;

const USERNAME_UNIQUE_INDEX = 'users_username_lower_key';

function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505' && (e.constraint === constraint || e.constraint === undefined)) return true;
  }
  return false;
}

type Ctx = Pick<
  ServiceContext,
  'db' | 'now' | 'config' | 'hasher' | 'jobs' | 'securityQuestionKeys' | 'log' | 'client'
>;

/** A refused submission, audited with its reason (never the typed values but the username it was for). */
function refusal(ctx: Ctx, username: string, reason: string) {
  return audit(ctx, ctx.db, {
    actor: null,
    action: 'registration.submit',
    target: username,
    outcome: 'failure',
    details: { reason },
  });
}

/** A username someone already has: the refusal is audited; answers 409 `Username_Taken` (shown next to the field). */
async function usernameTakenRefusal(ctx: Ctx, username: string) {
  await refusal(ctx, username, 'username_taken');
  return new PortalError(409, 'Username_Taken', { username: ['Username_Taken'] });
}

export async function registerAdministrator(ctx: Ctx, input: RegistrationInput): Promise<void> {
  const { db, hasher } = ctx;
  const now = ctx.now();

  // Answers only for questions of the CMS's current list (503 when it cannot be read), before the token is spent.
  await requireListedSecurityQuestions(ctx.securityQuestionKeys, input.securityQuestions);

  const problems = passwordProblems(input.password, [input.firstName, input.lastName, input.username, input.email]);
  if (problems.length) throw new PortalError(400, 'Validation_Failed', { password: problems });

  if (await usernameTaken(db, input.username)) throw await usernameTakenRefusal(ctx, input.username);

  // A token that cannot be used costs no hashing (the transaction below still decides, atomically).
  if (!(await peekLocationToken(db, { token: input.registrationToken, purpose: 'registration', now }))) {
    await refusal(ctx, input.username, 'registration_token_invalid');
    throw new PortalError(400, 'Registration_Token_Invalid');
  }

  // The expensive hashing happens before the transaction (in the hasher's threads), so no row is locked while it runs.
  const [passwordHash, ...answerHashes] = await Promise.all([
    hasher.hash(input.password),
    ...input.securityQuestions.map((q) => hashSecurityAnswer(q.answer, hasher)),
  ]);

  let outcome: { userId: string; locationId: string };
  try {
    outcome = await db.transaction(async (tx) => {
      const token = await consumeLocationToken(tx, { token: input.registrationToken, purpose: 'registration', now });
      if (!token) throw new PortalError(400, 'Registration_Token_Invalid');
      // The location's row lock serialises registrations for it: the second waits, then sees the first's link.
      await lockLocation(tx, token.locationId);
      if (await hasAdministrator(tx, token.locationId)) throw new PortalError(409, 'Location_Has_Administrator');

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
          passwordHash: passwordHash!,
          status: 'pending',
          passwordChangedAt: now,
        })
        .returning({ id: users.id });
      const userId = user!.id;
      await rememberPassword(tx, userId, passwordHash!, ctx.config.passwords.historyCount);
      await tx
        .insert(securityAnswers)
        .values(
          input.securityQuestions.map((q, i) => ({ userId, questionId: q.questionId, answerHash: answerHashes[i]! })),
        );
      await tx.insert(userLocations).values({ userId, locationId: token.locationId, role: 'administrator' });

      if (existing) {
        // The address already has an account: the same answer and the same rows as a new registration (the pending
        // account expires unverified), but the address gets a notice instead of a verification link.
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
          data: { firstName: input.firstName, token: verifyToken },
        });
      }
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
    if (err instanceof PortalError) {
      await refusal(ctx, input.username, err.code.toLowerCase());
      throw err;
    }
    // Two registrations choosing one username at the same moment: the unique index decides.
    if (isUniqueViolation(err, USERNAME_UNIQUE_INDEX)) throw await usernameTakenRefusal(ctx, input.username);
    throw err;
  }
  ctx.log.info(
    { userId: outcome.userId, locationId: outcome.locationId },
    'administrator registered (pending verification)',
  );
  ctx.jobs.kick(OUTBOX_JOB);
}
