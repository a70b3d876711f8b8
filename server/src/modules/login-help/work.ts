import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { oneTimeTokens } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { hashOneTimeToken, issueOneTimeToken } from '../../identity/one-time-tokens';

/** Stands in for a user id where no account matched, so the same statements run and touch no row. */
export const NO_USER_ID = '00000000-0000-4000-8000-000000000000';

export const REACTIVATION_CODE_DIGITS = 6;

/**
 * A reactivation code is short, so it is stored under the SHA-256 of `user id:code`: two users may hold the same
 * six digits, and the hash column is unique. Peek and consume it through one-time-tokens.ts with this as the token.
 */
export function reactivationCodeToken(userId: string, code: string): string {
  return `${userId}:${code}`;
}

/** What people type: digits only (spaces and dashes ignored); anything else can never match. */
export function normaliseReactivationCode(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}

/**
 * The work of a lookup that may or may not match an account (docs/decisions/0027). Every login-help flow calls these
 * through this object on both paths, so tests can count them (enumeration resistance) by spying on its members.
 */
export const loginHelpWork = {
  enqueueEmail,

  /** A reset link's token (256 bits) for the user; older unused ones stop working. */
  issueResetToken(tx: DbExecutor, userId: string, ttlMs: number, now: Date): Promise<string> {
    return issueOneTimeToken(tx, { userId, purpose: 'password-reset', ttlMs, now });
  },

  /**
   * The unmatched path's stand-in for `issueResetToken`: a token drawn and hashed the same way, and the same voiding
   * statement (it matches no row). No row is inserted: a token needs a user.
   */
  async drawUnusedToken(tx: DbExecutor, now: Date): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    hashOneTimeToken(token);
    await tx
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(oneTimeTokens.userId, NO_USER_ID),
          eq(oneTimeTokens.purpose, 'password-reset'),
          isNull(oneTimeTokens.usedAt),
        ),
      );
    return token;
  },

  /**
   * A six-digit reactivation code for the user (older unused ones stop working). With `NO_USER_ID` the same
   * statements run, the insert inside the caller's discarded savepoint (see `sameWork`).
   */
  async issueReactivationCode(tx: DbExecutor, userId: string, ttlMs: number, now: Date): Promise<string> {
    const code = String(randomInt(10 ** REACTIVATION_CODE_DIGITS)).padStart(REACTIVATION_CODE_DIGITS, '0');
    await tx
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(
        and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'reactivation'), isNull(oneTimeTokens.usedAt)),
      );
    if (userId !== NO_USER_ID)
      await tx.insert(oneTimeTokens).values({
        tokenHash: hashOneTimeToken(reactivationCodeToken(userId, code)),
        userId,
        purpose: 'reactivation',
        expiresAt: new Date(now.getTime() + ttlMs),
      });
    else hashOneTimeToken(reactivationCodeToken(userId, code));
    return code;
  },
};

class DiscardedWork extends Error {}

/**
 * Runs `work` in a savepoint of `tx` and keeps it only when `keep`: the path where no account matched does the same
 * inserts (the outbox row included) and then rolls them back, so it costs about the same and emails nobody.
 */
export async function sameWork(tx: DbExecutor, keep: boolean, work: (sp: DbExecutor) => Promise<void>): Promise<void> {
  try {
    await tx.transaction(async (sp) => {
      await work(sp);
      if (!keep) throw new DiscardedWork();
    });
  } catch (err) {
    if (!(err instanceof DiscardedWork)) throw err;
  }
}

/**
 * The question to ask for a token or code: one of the user's questions, fixed by the token so the two calls of a
 * flow ask the same one (the shared `pickSecurityQuestion` picks at random on each call).
 */
export function questionFor(questionIds: readonly string[], token: string): string | null {
  if (!questionIds.length) return null;
  const sorted = [...questionIds].sort();
  const index = parseInt(createHash('sha256').update(token).digest('hex').slice(0, 8), 16) % sorted.length;
  return sorted[index]!;
}
