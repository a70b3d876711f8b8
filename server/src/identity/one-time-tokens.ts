import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { oneTimeTokens } from '../db/schema';
import { recordAudit } from '../platform/audit';
import type { DbExecutor } from '../platform/db-executor';
import type { Job } from '../platform/jobs';
import { cutoff, deleteBatch, retentionJob, type PurgeSchedule } from '../platform/retention';

export type OneTimeTokenPurpose = (typeof oneTimeTokens.$inferInsert)['purpose'];

/** 32 random bytes (256 bits), base64url: far above the 128 bits a guess would have to beat. */
const TOKEN_BYTES = 32;

/** A new random token (base64url), e.g. for a table of its own that stores only `hashOneTimeToken` of it. */
export function newOneTimeToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Only this hash is stored: a stolen table gives no usable token. The tokens are random, so no key or salt is needed. */
export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

interface IssueOptions {
  purpose: OneTimeTokenPurpose;
  ttlMs: number;
  /** The current time (tests and the app's clock); the database's clock when absent. */
  now?: Date;
}

function expiry(now: Date | undefined, ttlMs: number) {
  return now ? new Date(now.getTime() + ttlMs) : sql`now() + ${ttlMs} * interval '1 millisecond'`;
}

/**
 * Issues a single-use token for a user and answers it (the only time it exists in clear). Older unused tokens of
 * the same user and purpose stop working: only the newest link in a user's mailbox is valid.
 */
export async function issueOneTimeToken(
  tx: DbExecutor,
  { userId, purpose, ttlMs, now, email }: IssueOptions & { userId: string; email?: string },
): Promise<string> {
  const token = newOneTimeToken();
  await revokeOneTimeTokens(tx, { userId, purpose, now });
  await tx.insert(oneTimeTokens).values({
    tokenHash: hashOneTimeToken(token),
    userId,
    purpose,
    email: email ?? null,
    expiresAt: expiry(now, ttlMs) as Date,
  });
  return token;
}

/** Stops every unused token of the user and purpose from working (a newer request replaces the links sent before). */
export async function revokeOneTimeTokens(
  tx: DbExecutor,
  { userId, purpose, now }: { userId: string; purpose: OneTimeTokenPurpose; now?: Date },
): Promise<void> {
  await tx
    .update(oneTimeTokens)
    .set({ usedAt: now ?? sql`now()` })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
}

/**
 * Why every outstanding token of a user stops working: a credential changed (password, authenticator, passkeys), the
 * user signed out everywhere else, or the account was locked or disabled.
 */
export type TokenRevocationReason =
  | 'credential_change'
  | 'sign_out_everywhere'
  | 'account_locked'
  /** A location administrator disabled the account (docs/requirements/staff-accounts.md). */
  | 'account_disabled'
  /** A location administrator reset the account's second factor (a credential change someone else made). */
  | 'mfa_reset';

/**
 * Stops every unused token of the user, whatever its purpose: pending email changes, reset links, reactivation codes,
 * verification links (docs/requirements/session.md#credential-changes). A link asked for before a credential change
 * or a sign-out everywhere may have been asked for by whoever held the account then; the owner asks again if it was
 * them. When any stopped, an audit event the owner sees on My account says so (the purposes are not recorded: a
 * pending email change must not show in the activity list differently from a reset link). Answers how many stopped.
 */
export async function revokeOutstandingTokens(
  tx: DbExecutor,
  userId: string,
  { reason, now }: { reason: TokenRevocationReason; now?: Date },
): Promise<number> {
  const rows = await tx
    .update(oneTimeTokens)
    .set({ usedAt: now ?? sql`now()` })
    .where(and(eq(oneTimeTokens.userId, userId), isNull(oneTimeTokens.usedAt)))
    .returning({ id: oneTimeTokens.id });
  if (rows.length)
    await recordAudit(tx, {
      actor: userId,
      action: 'tokens.revoked',
      target: userId,
      outcome: 'success',
      details: { reason, count: rows.length },
    });
  return rows.length;
}

/**
 * Issues a single-use token bound to a provider location rather than a user (registration: the user does not exist
 * yet). Older unused tokens of the location and purpose stop working.
 */
export async function issueLocationToken(
  tx: DbExecutor,
  { locationId, purpose, ttlMs, now }: IssueOptions & { locationId: string },
): Promise<string> {
  const token = newOneTimeToken();
  await tx
    .update(oneTimeTokens)
    .set({ usedAt: now ?? sql`now()` })
    .where(
      and(eq(oneTimeTokens.locationId, locationId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)),
    );
  await tx
    .insert(oneTimeTokens)
    .values({ tokenHash: hashOneTimeToken(token), locationId, purpose, expiresAt: expiry(now, ttlMs) as Date });
  return token;
}

interface ConsumeOptions {
  token: string;
  purpose: OneTimeTokenPurpose;
  now?: Date;
}

/** Marks the token used, atomically: of two concurrent uses exactly one gets the row. `owner` is the kind asked for. */
async function consume(tx: DbExecutor, { token, purpose, now }: ConsumeOptions, owner: 'user' | 'location') {
  const at = now ?? sql`now()`;
  const [row] = await tx
    .update(oneTimeTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashOneTimeToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNotNull(owner === 'user' ? oneTimeTokens.userId : oneTimeTokens.locationId),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, at),
      ),
    )
    .returning({ userId: oneTimeTokens.userId, locationId: oneTimeTokens.locationId, email: oneTimeTokens.email });
  return row;
}

/**
 * Uses a user's token once: answers its user (and the address it proves, when issued with one), or null when it is
 * unknown, used, expired or of another purpose.
 */
export async function consumeOneTimeToken(
  tx: DbExecutor,
  options: ConsumeOptions,
): Promise<{ userId: string; email: string | null } | null> {
  const row = await consume(tx, options, 'user');
  return row?.userId ? { userId: row.userId, email: row.email } : null;
}

/** Uses a location's token once (registration): answers its location, or null. */
export async function consumeLocationToken(
  tx: DbExecutor,
  options: ConsumeOptions,
): Promise<{ locationId: string } | null> {
  const row = await consume(tx, options, 'location');
  return row?.locationId ? { locationId: row.locationId } : null;
}

/**
 * Looks at a user's token without using it (a page that asks something else before the token is spent, e.g. the
 * security question before a password reset). Answers its user and expiry, or null when it would not be accepted.
 */
export async function peekOneTimeToken(
  tx: DbExecutor,
  options: ConsumeOptions,
): Promise<{ userId: string; expiresAt: Date } | null> {
  const row = await peek(tx, options);
  return row?.userId ? { userId: row.userId, expiresAt: row.expiresAt } : null;
}

/** The unused, unexpired token row for `token` and `purpose`, whoever owns it, without using it. */
async function peek(tx: DbExecutor, { token, purpose, now }: ConsumeOptions) {
  const [row] = await tx
    .select({
      userId: oneTimeTokens.userId,
      locationId: oneTimeTokens.locationId,
      expiresAt: oneTimeTokens.expiresAt,
    })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashOneTimeToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now ?? sql`now()`),
      ),
    );
  return row;
}

/**
 * Counts a wrong guess of a short code against its newest unused token of `purpose` for the user; at `maxAttempts`
 * the token is spent, so a 6-digit code cannot be guessed by trying them all. Answers the attempts so far.
 */
export async function countTokenAttempt(
  tx: DbExecutor,
  { userId, purpose, maxAttempts }: { userId: string; purpose: OneTimeTokenPurpose; maxAttempts: number },
): Promise<number> {
  const rows = await tx
    .update(oneTimeTokens)
    .set({
      attempts: sql`${oneTimeTokens.attempts} + 1`,
      usedAt: sql`case when ${oneTimeTokens.attempts} + 1 >= ${maxAttempts} then now() else null end`,
    })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)))
    .returning({ attempts: oneTimeTokens.attempts });
  return Math.max(0, ...rows.map((r) => r.attempts));
}

/** Looks at a location's token without using it (e.g. before expensive work that the token must justify). */
export async function peekLocationToken(
  tx: DbExecutor,
  options: ConsumeOptions,
): Promise<{ locationId: string; expiresAt: Date } | null> {
  const row = await peek(tx, options);
  return row?.locationId ? { locationId: row.locationId, expiresAt: row.expiresAt } : null;
}

/**
 * The user of a token of `purpose` that was already used (not one that merely expired or was replaced unused), or
 * null. Lets a page tell the holder of an old link that what it did is done (e.g. "already verified") instead of
 * calling it invalid; only whoever holds the link learns it.
 */
export async function usedOneTimeTokenUser(
  tx: DbExecutor,
  { token, purpose }: { token: string; purpose: OneTimeTokenPurpose },
): Promise<string | null> {
  const [row] = await tx
    .select({ userId: oneTimeTokens.userId })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashOneTimeToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNotNull(oneTimeTokens.usedAt),
      ),
    );
  return row?.userId ?? null;
}

export const TOKEN_RETENTION_JOB = 'one-time-token-retention';

/**
 * Deletes one-time tokens used or expired more than `tokenDays` (ONE_TIME_TOKEN_RETENTION_DAYS) ago, hourly, in
 * batches, like the other retention jobs (platform/retention.ts, docs/decisions/0032).
 */
export function tokenRetentionJob(settings: PurgeSchedule & { tokenDays: number }): Job {
  return retentionJob(TOKEN_RETENTION_JOB, settings, (tx, now, batchSize) => {
    const before = cutoff(now, settings.tokenDays);
    return deleteBatch(
      tx,
      'one_time_tokens',
      'id',
      sql`(expires_at < ${before}::timestamptz or used_at < ${before}::timestamptz)`,
      batchSize,
    );
  });
}
