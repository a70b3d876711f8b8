import { normaliseSecurityAnswer } from '@portal/contracts/fields';
import { eq } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import { securityAnswers } from '../db/schema';
import type { DbExecutor } from '../platform/db-executor';
import { PasswordHasher } from '../platform/password-hashing';

/**
 * Security answers (docs/requirements/portal.md#validation-rules): normalised (`normaliseSecurityAnswer` in the
 * contracts, the same the forms use to tell answers apart), then hashed with argon2id like a
 * password (off the event loop), never stored or logged in clear. They are one factor next to email possession,
 * never enough alone.
 */

/** OWASP's minimum argon2id cost: answers are short, so the cost is what protects them; the app's hasher may be passed. */
const defaultHasher = new PasswordHasher({ memoryKib: 19_456, iterations: 2 });

export function hashSecurityAnswer(answer: string, hasher: PasswordHasher = defaultHasher): Promise<string> {
  return hasher.hash(normaliseSecurityAnswer(answer));
}

export function verifySecurityAnswer(
  hash: string,
  answer: string,
  hasher: PasswordHasher = defaultHasher,
): Promise<boolean> {
  return hasher.verify(hash, normaliseSecurityAnswer(answer));
}

/** Stores a user's answers (question key → answer), replacing any earlier ones. Call in the change's transaction. */
export async function saveSecurityAnswers(
  tx: DbExecutor,
  userId: string,
  answers: readonly { questionId: string; answer: string }[],
  hasher: PasswordHasher = defaultHasher,
): Promise<void> {
  const rows = await Promise.all(
    answers.map(async ({ questionId, answer }) => ({
      userId,
      questionId,
      answerHash: await hashSecurityAnswer(answer, hasher),
    })),
  );
  await tx.delete(securityAnswers).where(eq(securityAnswers.userId, userId));
  if (rows.length) await tx.insert(securityAnswers).values(rows);
}

/** One of the user's questions (its CMS key), chosen at random, or null when the user has none. */
export async function pickSecurityQuestion(db: DbExecutor, userId: string): Promise<string | null> {
  const rows = await db
    .select({ questionId: securityAnswers.questionId })
    .from(securityAnswers)
    .where(eq(securityAnswers.userId, userId));
  if (!rows.length) return null;
  return rows[randomInt(rows.length)]!.questionId;
}

/** The stored hash of the user's answer to `questionId`, for `verifySecurityAnswer` (null when not one of theirs). */
export async function securityAnswerHash(db: DbExecutor, userId: string, questionId: string): Promise<string | null> {
  const rows = await db
    .select({ answerHash: securityAnswers.answerHash, questionId: securityAnswers.questionId })
    .from(securityAnswers)
    .where(eq(securityAnswers.userId, userId));
  return rows.find((r) => r.questionId === questionId)?.answerHash ?? null;
}
