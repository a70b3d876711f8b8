import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';
import { rateLimits } from '../src/db/schema';
import { countAttempt, peekAttempts, rateLimitCleanupJob, resetAttempts } from '../src/platform/rate-limit';
import { createTestDatabase } from './helpers';

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
