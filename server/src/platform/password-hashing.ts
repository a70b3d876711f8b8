import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseOptions } from '@node-rs/argon2';
import { Piscina } from 'piscina';
import { PASSWORD_HASH_NICE_DEFAULT } from '../config';

/** argon2id cost (docs/decisions/0017): OWASP's minimum is m = 19 MiB, t = 2, p = 1; settings may raise m and t. */
export interface HashingSettings {
  memoryKib: number;
  iterations: number;
  /**
   * At most this many hashes or verifications at once, one per worker thread (more wait their turn); unset: one per
   * core. More than the cores would only crowd the event loop out of the CPU (docs/decisions/0025).
   */
  maxConcurrent?: number;
  /**
   * How much lower the hashing threads' scheduling priority is than the event loop's (Linux nice increment, 0–19;
   * ignored elsewhere): the event loop, and PostgreSQL on the same host, get a core as soon as they need one, and
   * hashing still uses every idle core. Unset: 10 (docs/decisions/0062).
   */
  niceIncrement?: number;
}

const worker = new URL('./password-hash-worker.mjs', import.meta.url).href;

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which isolated modules cannot import)

/**
 * Hashes and verifies in worker threads of lower priority (piscina), so a login never blocks the event loop nor takes
 * the CPU from it. The threads start at the first hash and end after a minute without one.
 */
export class PasswordHasher {
  private readonly options;
  private dummyHash: Promise<string> | undefined;
  private pool: Piscina | undefined;
  /** Hashes and verifications asked for and not finished: shutdown waits for them (docs/decisions/0032). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(readonly settings: HashingSettings) {
    this.options = {
      algorithm: ARGON2ID,
      memoryCost: settings.memoryKib,
      timeCost: settings.iterations,
      parallelism: 1,
    };
  }

  private run<T>(name: 'hash' | 'verify', task: object): Promise<T> {
    this.pool ??= new Piscina({
      filename: worker,
      minThreads: 0,
      maxThreads: this.settings.maxConcurrent ?? availableParallelism(),
      idleTimeout: 60_000,
      niceIncrement: this.settings.niceIncrement ?? PASSWORD_HASH_NICE_DEFAULT,
    });
    const running = this.pool.run(task, { name }) as Promise<T>;
    this.pending.add(running);
    const settled = () => void this.pending.delete(running);
    running.then(settled, settled);
    return running;
  }

  hash(password: string): Promise<string> {
    return this.run('hash', { password: password.normalize('NFKC'), options: this.options });
  }

  /**
   * False for a wrong password or a malformed stored hash. A failure of the hashing itself (a worker thread ended, the
   * server shutting down) rejects: it is not a wrong password and must never count towards a lockout.
   */
  verify(storedHash: string, password: string): Promise<boolean> {
    return this.run<boolean>('verify', { storedHash, password: password.normalize('NFKC') });
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

  /**
   * The server's shutdown: finishes every hash and verification already asked for (those a finishing request asks
   * for meanwhile too), then ends the worker threads; a later hash starts new ones. Destroying the pool at once
   * would fail each queued login with a 500.
   */
  async close(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  /**
   * A forced stop: ends the threads at once, and whatever was queued rejects (never "wrong password", so it cannot
   * count towards a lockout). Shutdown uses `close()`.
   */
  async destroy(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  /** Hashes once and throws the result away: equal work where a real path would hash (e.g. registration of a taken name). */
  async hashDummy(password: string): Promise<void> {
    await this.hash(password);
  }
}
