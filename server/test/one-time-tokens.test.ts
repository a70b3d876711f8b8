import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseSecurityAnswer } from '@portal/contracts/fields';
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';
import { oneTimeTokens, securityAnswers } from '../src/db/schema';
import {
  consumeLocationToken,
  consumeOneTimeToken,
  countTokenAttempt,
  hashOneTimeToken,
  issueLocationToken,
  issueOneTimeToken,
  peekOneTimeToken,
} from '../src/identity/one-time-tokens';
import { PasswordHasher } from '../src/platform/password-hashing';
import {
  hashSecurityAnswer,
  pickSecurityQuestion,
  saveSecurityAnswers,
  verifySecurityAnswer,
} from '../src/identity/security-answers';
import { createTestDatabase } from './helpers';
import { createPerson, createLocation } from './factories';

const t0 = new Date('2026-11-23T10:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

describe('one-time tokens and security answers (shared by registration and login help)', () => {
  let database: DatabaseHandle;
  let userId: string;
  let locationId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    ({ id: userId } = await createPerson({ database }, { username: 'token.user', status: 'pending' }));
    ({ id: locationId } = await createLocation({ database }));
  });
  afterAll(() => database.close());

  it('issues a long random token, stores only its hash, and accepts it exactly once', async () => {
    const { db } = database;
    const token = await issueOneTimeToken(db, { userId, purpose: 'email-verify', ttlMs: 60_000, now: t0 });
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, userId));
    expect(stored.map((r) => r.tokenHash)).toContain(hashOneTimeToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    expect(await consumeOneTimeToken(db, { token, purpose: 'password-reset', now: t0 })).toBeNull();
    expect(await peekOneTimeToken(db, { token, purpose: 'email-verify', now: t0 })).toMatchObject({ userId });
    expect(await consumeOneTimeToken(db, { token, purpose: 'email-verify', now: t0 })).toEqual({ userId, email: null });
    expect(await consumeOneTimeToken(db, { token, purpose: 'email-verify', now: t0 })).toBeNull();
    expect(await peekOneTimeToken(db, { token, purpose: 'email-verify', now: t0 })).toBeNull();
  });

  it('refuses a token at its expiry and one replaced by a newer token', async () => {
    const { db } = database;
    const expiring = await issueOneTimeToken(db, { userId, purpose: 'password-reset', ttlMs: 60_000, now: t0 });
    expect(
      await consumeOneTimeToken(db, { token: expiring, purpose: 'password-reset', now: later(60_000) }),
    ).toBeNull();
    const older = await issueOneTimeToken(db, { userId, purpose: 'password-reset', ttlMs: 60_000, now: t0 });
    const newer = await issueOneTimeToken(db, { userId, purpose: 'password-reset', ttlMs: 60_000, now: t0 });
    expect(await consumeOneTimeToken(db, { token: older, purpose: 'password-reset', now: t0 })).toBeNull();
    expect(await consumeOneTimeToken(db, { token: newer, purpose: 'password-reset', now: later(59_999) })).toEqual({
      userId,
      email: null,
    });
  });

  it('gives two concurrent uses of one token to exactly one caller', async () => {
    const { db } = database;
    const token = await issueOneTimeToken(db, { userId, purpose: 'reactivation', ttlMs: 60_000 });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => consumeOneTimeToken(db, { token, purpose: 'reactivation' })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('binds registration tokens to a location, not a user', async () => {
    const { db } = database;
    const token = await issueLocationToken(db, { locationId, purpose: 'registration', ttlMs: 60_000, now: t0 });
    expect(await consumeOneTimeToken(db, { token, purpose: 'registration', now: t0 })).toBeNull();
    expect(await consumeLocationToken(db, { token, purpose: 'registration', now: t0 })).toEqual({ locationId });
    expect(await consumeLocationToken(db, { token, purpose: 'registration', now: t0 })).toBeNull();
  });

  it('spends a short code after the attempt limit', async () => {
    const { db } = database;
    const token = await issueOneTimeToken(db, { userId, purpose: 'reactivation', ttlMs: 60_000 });
    expect(await countTokenAttempt(db, { userId, purpose: 'reactivation', maxAttempts: 3 })).toBe(1);
    expect(await countTokenAttempt(db, { userId, purpose: 'reactivation', maxAttempts: 3 })).toBe(2);
    expect(await countTokenAttempt(db, { userId, purpose: 'reactivation', maxAttempts: 3 })).toBe(3);
    expect(await consumeOneTimeToken(db, { token, purpose: 'reactivation' })).toBeNull();
  });

  it('normalises answers (case, spaces, NFKC) and verifies them against the stored hash', async () => {
    expect(normaliseSecurityAnswer('  Blue\t  HONDA  civic ')).toBe('blue honda civic');
    expect(normaliseSecurityAnswer('ＢＬＵＥ')).toBe('blue');
    const hasher = new PasswordHasher({ memoryKib: 19_456, iterations: 2 });
    const hash = await hashSecurityAnswer('Blue Honda', hasher);
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifySecurityAnswer(hash, ' blue   honda ', hasher)).toBe(true);
    expect(await verifySecurityAnswer(hash, 'red honda', hasher)).toBe(false);

    await saveSecurityAnswers(database.db, userId, [
      { questionId: 'first-car', answer: 'Honda' },
      { questionId: 'first-school', answer: 'Lincoln' },
      { questionId: 'childhood-nickname', answer: 'Bee' },
    ]);
    const rows = await database.db.select().from(securityAnswers).where(eq(securityAnswers.userId, userId));
    expect(rows).toHaveLength(3);
    expect(JSON.stringify(rows)).not.toMatch(/honda|lincoln|bee"/i);
    expect(['first-car', 'first-school', 'childhood-nickname']).toContain(
      await pickSecurityQuestion(database.db, userId),
    );
  });
});
