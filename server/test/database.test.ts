import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidMbi, isValidNpi } from '@portal/contracts/identifiers';
import type { DatabaseHandle } from '../src/db/client';
import { AUTHORITY_LOOKBACK_DAYS, generateDemoData, seedDemoData } from '../src/db/demo-data';
import { appState, claims, providerLocations } from '../src/db/schema';
import { buildTestApp, createTestDatabase } from './helpers';

const TODAY = '2026-11-22';
const daysBetween = (a: string, b: string) => (Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

describe('demo data generator', () => {
  const all = (seed?: number) => [...generateDemoData({ seed, locations: 120, today: TODAY, batchSize: 50 })];

  it('is deterministic: the same seed and day give the same rows', () => {
    expect(JSON.stringify(all())).toBe(JSON.stringify(all()));
    expect(JSON.stringify(all(7))).not.toBe(JSON.stringify(all()));
  });

  it('yields valid identifiers and unique keys', () => {
    const locations = all().flatMap((b) => b.locations);
    expect(locations).toHaveLength(120);
    for (const l of locations) {
      expect(isValidNpi(l.npi), l.npi).toBe(true);
      expect(l.tin).toMatch(/^\d{9}$/);
      expect(l.ptan).toMatch(/^[A-Z0-9]{6,10}$/);
      expect(l.jurisdiction === 'J5' ? ['IA', 'KS', 'MO', 'NE'] : ['IN', 'MI']).toContain(l.state);
    }
    expect(new Set(locations.map((l) => `${l.npi}|${l.ptan}|${l.lineOfBusiness}`)).size).toBe(120);
    // Some organisations bill from several locations under one NPI.
    expect(new Set(locations.map((l) => l.npi)).size).toBeLessThan(120);
  });

  it('puts paid claims both inside and outside the authority lookback window', () => {
    const rows = all().flatMap((b) => b.claims);
    expect(rows).toHaveLength(360);
    const ages = rows.map((c) => daysBetween(TODAY, c.paidDate));
    expect(ages.filter((a) => a < AUTHORITY_LOOKBACK_DAYS).length).toBe(240);
    expect(ages.filter((a) => a > AUTHORITY_LOOKBACK_DAYS).length).toBe(120);
    for (const c of rows) {
      expect(isValidMbi(c.patientMbi), c.patientMbi).toBe(true);
      expect(c.claimNumber).toMatch(/^[A-Z0-9]{13,23}$/);
      expect(daysBetween(c.paidDate, c.dateOfService)).toBeGreaterThan(0);
    }
    expect(new Set(rows.map((c) => c.claimNumber)).size).toBe(360);
  });
});

describe('database', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.close());

  it('re-running migrations applies nothing and keeps them recorded as applied', async () => {
    expect(await database.migrate()).toBe(0);
    expect(await database.migrationsApplied()).toBe(true);
  });

  it('seeds demo data once, all rows or none', async () => {
    const first = await seedDemoData(database.db, { locations: 40, today: TODAY });
    expect(first).toEqual({ seeded: true, locations: 40, claims: 120 });
    const second = await seedDemoData(database.db, { locations: 40, today: TODAY });
    expect(second.seeded).toBe(false);
    const [{ n }] = (await database.db.select({ n: count() }).from(providerLocations)) as [{ n: number }];
    expect(n).toBe(40);
    const [marker] = await database.db.select().from(appState).where(eq(appState.key, 'demo_data'));
    expect(marker?.value).toMatchObject({ locations: 40 });
  });

  it('a failing seed leaves nothing behind', async () => {
    const before = await database.db.select({ n: count() }).from(claims);
    // A duplicate claim number in the second batch violates the unique index: the whole seed must roll back.
    await expect(
      database.db.transaction(async (tx) => {
        const [batch] = [...generateDemoData({ seed: 99, locations: 2, today: TODAY })];
        await tx.insert(providerLocations).values(batch!.locations);
        await tx.insert(claims).values([...batch!.claims, batch!.claims[0]!]);
      }),
    ).rejects.toThrow();
    const after = await database.db.select({ n: count() }).from(claims);
    expect(after).toEqual(before);
  });

  it('usernames are unique whatever their case', async () => {
    const insert = (username: string) =>
      database.db.execute(sql`insert into users (username, email, first_name, last_name, dob, password_hash) values (${username}, 'a@example.com', 'A', 'B', '1980-01-01', 'x')`);
    await insert('Office.Admin');
    await expect(insert('office.admin')).rejects.toThrow();
  });
});

describe('readiness', () => {
  it('answers 503 when the database is gone', async () => {
    const { app, database } = await buildTestApp();
    await database.close();
    const res = await app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', database: 'down' });
    // the app's own onClose would close the database a second time
    database.close = async () => {};
    await app.close();
  });
});
