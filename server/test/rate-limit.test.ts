import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';
import { rateLimits } from '../src/db/schema';
import {
  clientKeyOfAddress,
  countAttempt,
  peekAttempts,
  rateLimitCleanupJob,
  resetAttempts,
} from '../src/platform/rate-limit';
import { buildTestApp, createTestDatabase, portalHeaders, testConfig } from './helpers';

describe('rate-limit counters in PostgreSQL', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('counts attempts per key in a window and reports the time left', async () => {
    const { db } = database;
    expect(await countAttempt(db, 'location:a', 60_000)).toMatchObject({ count: 1 });
    expect(await countAttempt(db, 'location:a', 60_000)).toMatchObject({ count: 2 });
    expect(await countAttempt(db, 'location:b', 60_000)).toMatchObject({ count: 1 });
    const peek = await peekAttempts(db, 'location:a');
    expect(peek.count).toBe(2);
    expect(peek.ttlMs).toBeGreaterThan(0);
    expect(peek.ttlMs).toBeLessThanOrEqual(60_000);
    await resetAttempts(db, 'location:a');
    expect((await peekAttempts(db, 'location:a')).count).toBe(0);
  });

  it('starts a new window once the old one has ended, and the cleanup job deletes ended windows', async () => {
    const { db } = database;
    await countAttempt(db, 'old', 60_000);
    await countAttempt(db, 'old', 60_000);
    await db.execute(sql`update rate_limits set expires_at = now() - interval '1 second' where key = 'old'`);
    expect((await peekAttempts(db, 'old')).count).toBe(0);
    expect(await countAttempt(db, 'old', 60_000)).toMatchObject({ count: 1 });
    await db.execute(sql`update rate_limits set expires_at = now() - interval '1 second' where key = 'old'`);
    await db.transaction((tx) => rateLimitCleanupJob().run(tx));
    const keys = (await db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key);
    expect(keys).not.toContain('old');
    expect(keys).toContain('location:b');
  });
});

describe('the client key of every per-client limit (docs/decisions/0032)', () => {
  it('keeps IPv4 per address, groups IPv6 by /64 and treats IPv4-mapped IPv6 as IPv4', () => {
    expect(clientKeyOfAddress('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKeyOfAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOfAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOfAddress('2001:db8:1:2:3:4:5:6%eth0')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOfAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKeyOfAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOfAddress('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKeyOfAddress('::ffff:c000:207')).toBe('192.0.2.7');
  });

  it('reads every way of writing an IPv6 address, and leaves what is not an address as it is', () => {
    // The same /64 written with a dotted tail, in capitals, with leading zeros, fully expanded.
    for (const written of [
      '2001:db8:a:b::192.0.2.1',
      '2001:DB8:A:B::1',
      '2001:0db8:000a:000b:0:0:0:1',
      '2001:db8:a:b:1:2:3:4',
    ])
      expect(clientKeyOfAddress(written), written).toBe('2001:db8:a:b::/64');
    // A dotted tail that is not IPv4-mapped (NAT64) stays IPv6.
    expect(clientKeyOfAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientKeyOfAddress('::')).toBe('0:0:0:0::/64');
    expect(clientKeyOfAddress('::FFFF:192.0.2.7')).toBe('192.0.2.7');
    for (const odd of ['', 'unknown', '2001:db8::1::2', '192.0.2.256', '2001:db8:1:2:3:4:5:6:7'])
      expect(clientKeyOfAddress(odd), odd).toBe(odd);
  });

  it('counts every address of one IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 client', async () => {
    const { app } = await buildTestApp({ config: testConfig({ LOGIN_ATTEMPTS_PER_MINUTE: '2' }) });
    try {
      const login = (remoteAddress: string) =>
        app
          .inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress,
            headers: portalHeaders,
            payload: { username: 'nobody-here', password: 'wrong password' },
          })
          .then((r) => r.statusCode);
      // Two attempts from two addresses of one /64 use up its budget: a third address of it is refused.
      expect(await login('2001:db8:7:1::1')).toBe(401);
      expect(await login('2001:db8:7:1::2')).toBe(401);
      expect(await login('2001:db8:7:1:ffff::3')).toBe(429);
      // The neighbouring /64 is another client.
      expect(await login('2001:db8:7:2::1')).toBe(401);
      // An IPv4 client and its IPv4-mapped form share a budget; its IPv4 neighbour does not.
      expect(await login('198.51.100.9')).toBe(401);
      expect(await login('::ffff:198.51.100.9')).toBe(401);
      expect(await login('198.51.100.9')).toBe(429);
      expect(await login('198.51.100.10')).toBe(401);
    } finally {
      await app.close();
    }
  });
});
