import { availableParallelism } from 'node:os';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config';
import { PasswordHasher } from '../src/platform/password-hashing';

// argon2 replaced by calls that finish only when the test says: what is observed is how many were started at once.
const started = vi.hoisted(() => [] as { finish: () => void }[]);
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const pending = <T>(value: T) => new Promise<T>((resolve) => started.push({ finish: () => resolve(value) }));
  return {
    ...(await importOriginal<typeof import('@node-rs/argon2')>()),
    hash: () => pending('$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'),
    verify: () => pending(true),
  };
});

/** Resolves once every microtask queued so far has run (a finished call lets the next waiting one start). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('password hashing concurrency (PASSWORD_HASH_CONCURRENCY)', () => {
  beforeEach(() => {
    started.length = 0;
  });

  it('starts every hash at once when no limit is set (the default)', async () => {
    const hasher = new PasswordHasher({ memoryKib: 19_456, iterations: 2 });
    const calls = [hasher.hash('a'), hasher.hash('b'), hasher.verify('stored', 'c'), hasher.hash('d')];
    await settle();
    expect(started).toHaveLength(4);
    for (const call of started) call.finish();
    await Promise.all(calls);
  });

  it('with a limit, runs at most that many hashes and verifications at once and the rest in turn', async () => {
    const hasher = new PasswordHasher({ memoryKib: 19_456, iterations: 2, maxConcurrent: 2 });
    const calls = [hasher.hash('a'), hasher.verify('stored', 'b'), hasher.hash('c'), hasher.verify('stored', 'd')];
    await settle();
    expect(started).toHaveLength(2);
    started[0]!.finish();
    await settle();
    expect(started).toHaveLength(3);
    for (const call of started.slice(1)) call.finish();
    await settle();
    expect(started).toHaveLength(4);
    started[3]!.finish();
    expect(await Promise.all(calls)).toEqual([expect.stringMatching(/^\$argon2id\$/), true, expect.any(String), true]);
  });

  it('reads the limit from PASSWORD_HASH_CONCURRENCY, one per core by default, and rejects 0', () => {
    const env = { SESSION_SECRET: 'test-session-secret-0123456789abcdef', ENCRYPTION_KEY: '0'.repeat(64) };
    expect(loadConfig(env).passwords.hashConcurrency).toBe(availableParallelism());
    expect(loadConfig({ ...env, PASSWORD_HASH_CONCURRENCY: '1' }).passwords.hashConcurrency).toBe(1);
    expect(() => loadConfig({ ...env, PASSWORD_HASH_CONCURRENCY: '0' })).toThrow(/PASSWORD_HASH_CONCURRENCY/);
  });
});
