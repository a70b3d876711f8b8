import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { GeneratedPasswordResponse } from '@portal/contracts/password-policy';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { passwordHistory } from '../src/db/schema';
import { GENERATOR_ALPHABET } from '../src/modules/password-generator/service';
import { GENERATE_PER_MINUTE } from '../src/modules/password-generator/routes';
import { isRecentPassword, rememberPassword } from '../src/identity/passwords/history';
import { PasswordHasher } from '../src/platform/password-hashing';
import { passwordProblems } from '../src/identity/passwords/policy';
import { buildTestApp, portalHeaders, testConfig } from './helpers';
import { createPerson } from './factories';

const settings = { memoryKib: 19_456, iterations: 2 };

describe('argon2id hasher', () => {
  const hasher = new PasswordHasher(settings);

  it('hashes with argon2id at the configured cost and verifies only the right password', async () => {
    const stored = await hasher.hash('violet lantern orbit tea');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(stored, 'violet lantern orbit tea')).toBe(true);
    expect(await hasher.verify(stored, 'violet lantern orbit te')).toBe(false);
    expect(await hasher.verify('not a hash', 'violet lantern orbit tea')).toBe(false);
  });

  it('asks for a rehash when the parameters change', async () => {
    const stored = await hasher.hash('violet lantern orbit tea');
    expect(hasher.needsRehash(stored)).toBe(false);
    expect(new PasswordHasher({ memoryKib: 19_456, iterations: 3 }).needsRehash(stored)).toBe(true);
    expect(new PasswordHasher({ memoryKib: 32_768, iterations: 2 }).needsRehash(stored)).toBe(true);
    expect(hasher.needsRehash('$2b$10$abcdefghijklmnopqrstuv')).toBe(true);
  });

  it('verifyDummy does a real verification and never matches', async () => {
    expect(await hasher.verifyDummy('anything at all here')).toBe(false);
  });

  it('applies the shipped blocklist and personal words', () => {
    expect(passwordProblems('password12345678', [])).toEqual(['Password_Too_Common']);
    expect(passwordProblems('smithsonian river walk', ['Ann', 'Smith'])).toEqual(['Password_Contains_Personal_Info']);
  });
});

describe('password history', () => {
  const hasher = new PasswordHasher(settings);
  let app: FastifyInstance;
  let userId: string;
  beforeAll(async () => {
    ({ app } = await buildTestApp());
    ({ id: userId } = await createPerson(app, { username: 'history', status: 'pending' }));
  });
  afterAll(() => app.close());

  it('refuses the last N passwords and allows an older one', async () => {
    const { db } = app.database;
    for (let i = 1; i <= 4; i++) await rememberPassword(db, userId, await hasher.hash(`passphrase number ${i}`), 3);
    expect(await db.select().from(passwordHistory).where(eq(passwordHistory.userId, userId))).toHaveLength(3);
    expect(await isRecentPassword(db, hasher, userId, 'passphrase number 4', 3)).toBe(true);
    expect(await isRecentPassword(db, hasher, userId, 'passphrase number 2', 3)).toBe(true);
    expect(await isRecentPassword(db, hasher, userId, 'passphrase number 1', 3)).toBe(false);
    expect(await isRecentPassword(db, hasher, userId, 'a brand new passphrase', 3)).toBe(false);
  });
});

describe('POST /api/password/generate/get', () => {
  let app: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp());
    // A second instance on the same database: the rate limit is shared through PostgreSQL.
    second = await buildApp({ config: testConfig(), database: app.database, logStream: new PassThrough() });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await app.close();
  });

  const generate = (instance: FastifyInstance, ip = '198.51.100.7') =>
    instance.inject({ method: 'POST', url: '/api/password/generate/get', headers: portalHeaders, remoteAddress: ip });

  it('returns a fresh random password from the unambiguous alphabet that passes the policy', async () => {
    const first = await generate(app);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const { password } = GeneratedPasswordResponse.parse(first.json()).data;
    expect(password).toHaveLength(20);
    for (const ch of password) expect(GENERATOR_ALPHABET).toContain(ch);
    expect(passwordProblems(password, [])).toEqual([]);
    expect(GeneratedPasswordResponse.parse((await generate(app)).json()).data.password).not.toBe(password);
  });

  it('is refused without the portal request header (CSRF)', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/password/generate/get',
      remoteAddress: '198.51.100.8',
    });
    expect(response.statusCode).toBe(403);
  });

  it('limits each client across both instances: 429 Too_Many_Requests with Retry-After', async () => {
    const ip = '198.51.100.20';
    for (let i = 0; i < GENERATE_PER_MINUTE; i++)
      expect((await generate(i % 2 ? app : second, ip)).statusCode).toBe(200);
    for (const instance of [app, second]) {
      const refused = await generate(instance, ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ errorMessage: 'Too_Many_Requests' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another client is not affected.
    expect((await generate(second, '198.51.100.21')).statusCode).toBe(200);
  });
});
