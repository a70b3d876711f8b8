import { randomBytes } from 'node:crypto';
import { hash, parseOptions, verify } from '@node-rs/argon2';
import blocklistEntries from '@portal/contracts/password-blocklist.json';
import { checkPassword, type PasswordProblem } from '@portal/contracts/password-policy';
import { desc, eq, inArray } from 'drizzle-orm';
import pLimit from 'p-limit';
import { passwordHistory } from '../db/schema';
import type { DbExecutor } from './db-executor';

/** argon2id cost (docs/decisions/0017): OWASP's minimum is m = 19 MiB, t = 2, p = 1; settings may raise m and t. */
export interface HashingSettings {
  memoryKib: number;
  iterations: number;
  /**
   * At most this many hashes or verifications at once (more wait their turn); unset: no limit, as many as libuv's
   * thread pool runs. Below the core count it leaves the event loop a core (docs/decisions/0025).
   */
  maxConcurrent?: number;
}

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which isolated modules cannot import)

/** The common-password list shipped in contracts, lower-cased. */
export const passwordBlocklist: ReadonlySet<string> = new Set(blocklistEntries);

/** The policy with the blocklist loaded; `personal` is the user's names, username and email. */
export function passwordProblems(
  password: string,
  personal: readonly (string | null | undefined)[],
): PasswordProblem[] {
  return checkPassword(password, { personal, blocklist: passwordBlocklist });
}

/** Hashes and verifies on libuv's thread pool, so a login never blocks the event loop. */
export class PasswordHasher {
  private readonly options;
  private dummyHash: Promise<string> | undefined;
  private readonly run: <T>(work: () => Promise<T>) => Promise<T>;

  constructor(readonly settings: HashingSettings) {
    this.options = {
      algorithm: ARGON2ID,
      memoryCost: settings.memoryKib,
      timeCost: settings.iterations,
      parallelism: 1,
    };
    const limit = settings.maxConcurrent ? pLimit(settings.maxConcurrent) : undefined;
    this.run = limit ? (work) => limit(work) : (work) => work();
  }

  hash(password: string): Promise<string> {
    return this.run(() => hash(password.normalize('NFKC'), this.options));
  }

  async verify(storedHash: string, password: string): Promise<boolean> {
    try {
      return await this.run(() => verify(storedHash, password.normalize('NFKC')));
    } catch {
      return false; // a malformed stored hash never matches
    }
  }

  /** True when the stored hash was made with other parameters than today's: rehash it after a successful login. */
  needsRehash(storedHash: string): boolean {
    if (!storedHash.startsWith('$argon2id$')) return true;
    try {
      const used = parseOptions(storedHash);
      return (
        used.memoryCost !== this.options.memoryCost || used.timeCost !== this.options.timeCost || used.parallelism !== 1
      );
    } catch {
      return true;
    }
  }

  /** Verifies against a hash of a random password: the same work as a real check, for unknown usernames. */
  async verifyDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(18).toString('base64'));
    await this.verify(await this.dummyHash, password);
    return false;
  }

  /** Hashes once and throws the result away: equal work where a real path would hash (e.g. registration of a taken name). */
  async hashDummy(password: string): Promise<void> {
    await this.hash(password);
  }
}

/** Whether `password` matches one of the user's last `count` passwords (the history holds every password set). */
export async function isRecentPassword(
  db: DbExecutor,
  hasher: PasswordHasher,
  userId: string,
  password: string,
  count: number,
): Promise<boolean> {
  const recent = await db
    .select({ passwordHash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(count);
  for (const row of recent) if (await hasher.verify(row.passwordHash, password)) return true;
  return false;
}

/** Records a newly set password's hash and forgets those older than the last `count`. Call in the change's transaction. */
export async function rememberPassword(
  db: DbExecutor,
  userId: string,
  passwordHash: string,
  count: number,
): Promise<void> {
  await db.insert(passwordHistory).values({ userId, passwordHash });
  const keep = await db
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .offset(count);
  if (keep.length)
    await db.delete(passwordHistory).where(
      inArray(
        passwordHistory.id,
        keep.map((r) => r.id),
      ),
    );
}
