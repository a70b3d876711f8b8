import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { PasswordHasher } from '../src/platform/password-hashing';

/** Linux scheduling priority (nice) of each thread of this process, from /proc. */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      // Fields after the command name: state is the 1st, nice the 17th (proc(5): field 19).
      return [Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

/** Threads at `nice` while `work` runs (sampled until it ends) and the most seen at once. */
async function mostThreadsAt<T>(nice: number, work: Promise<T>): Promise<{ result: T; most: number }> {
  let most = 0;
  let done = false;
  const result = work.finally(() => (done = true));
  while (!done) {
    most = Math.max(most, threadNiceValues().filter((n) => n === nice).length);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { result: await result, most };
}

const settings = { memoryKib: 19_456, iterations: 2 };
const hashers: PasswordHasher[] = [];
function hasher(extra: { maxConcurrent?: number; niceIncrement?: number }) {
  const created = new PasswordHasher({ ...settings, ...extra });
  hashers.push(created);
  return created;
}

describe('password hashing threads (PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_NICE)', () => {
  afterEach(async () => {
    for (const h of hashers.splice(0)) await h.close();
  });

  // Each case uses its own nice value, so threads of another hasher cannot be counted in.
  it.runIf(process.platform === 'linux')(
    'hashes and verifies in at most maxConcurrent threads, at the lower priority asked for',
    async () => {
      const h = hasher({ maxConcurrent: 2, niceIncrement: 7 });
      const stored = await h.hash('a long enough password');
      const { result, most } = await mostThreadsAt(
        7,
        Promise.all([
          h.verify(stored, 'a long enough password'),
          h.verify(stored, 'another password'),
          h.hash('b'),
          h.verify('not a hash', 'c'),
        ]),
      );
      expect(result).toEqual([true, false, expect.stringMatching(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/), false]);
      expect(most).toBe(2);
    },
  );

  it('a failure of the hashing itself rejects instead of answering "wrong password" (no lockout from a shutdown)', async () => {
    const h = hasher({ maxConcurrent: 1 });
    const stored = await h.hash('a long enough password');
    // One verification running, one waiting for the thread, when the hasher is destroyed (a forced stop).
    const outcomes = Promise.allSettled([1, 2].map(() => h.verify(stored, 'a long enough password')));
    await h.destroy();
    expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    // A malformed stored hash is a mismatch, not a failure; a destroyed hasher starts new threads when used again.
    expect(await h.verify('$argon2id$v=19$m=19456,t=2,p=1$bad', 'x')).toBe(false);
    expect(await h.verify(stored, 'a long enough password')).toBe(true);
  });

  it.runIf(process.platform === 'linux')('runs one hashing thread per core when no limit is given', async () => {
    const h = hasher({ niceIncrement: 6 });
    const { most } = await mostThreadsAt(
      6,
      Promise.all(Array.from({ length: availableParallelism() + 2 }, (_, i) => h.hash(`password ${i}`))),
    );
    expect(most).toBe(availableParallelism());
  });

  it('reads the limit and the priority from the settings: one hash per core and nice 10 by default', () => {
    const env = { SESSION_SECRET: 'test-session-secret-0123456789abcdef', ENCRYPTION_KEY: '0'.repeat(64) };
    expect(loadConfig(env).passwords).toMatchObject({ hashConcurrency: availableParallelism(), hashNice: 10 });
    expect(loadConfig({ ...env, PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_NICE: '0' }).passwords).toMatchObject({
      hashConcurrency: 1,
      hashNice: 0,
    });
    expect(() => loadConfig({ ...env, PASSWORD_HASH_CONCURRENCY: '0' })).toThrow(/PASSWORD_HASH_CONCURRENCY/);
    expect(() => loadConfig({ ...env, PASSWORD_HASH_NICE: '20' })).toThrow(/PASSWORD_HASH_NICE/);
  });
});

describe('closing the hasher (the server shutdown)', () => {
  it('finishes every verification already queued before ending its threads', async () => {
    const closing = new PasswordHasher({ ...settings, maxConcurrent: 1 });
    const stored = await closing.hash('the right password');
    // One thread: the first verification runs, the other five wait in the queue when close() is called.
    const queued = ['the right password', 'wrong', 'wrong', 'the right password', 'wrong', 'wrong'].map((p) =>
      closing.verify(stored, p),
    );
    await closing.close();
    expect(await Promise.all(queued)).toEqual([true, false, false, true, false, false]);
  });
});
