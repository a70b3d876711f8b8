import { count, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isValidMbi, isValidNpi } from '@portal/contracts/identifiers';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, PGLITE_SETTINGS, type DatabaseHandle } from '../src/db/client';
import { rowsOf } from '../src/platform/db-executor';
import { AUTHORITY_LOOKBACK_DAYS, DEMO_SEED, generateDemoData, seedDemoData } from '../src/db/demo-data';
import { appState, claims, providerLocations } from '../src/db/schema';
import { buildTestApp, createTestDatabase } from './helpers';
import { createPerson } from './factories';

const TODAY = '2026-11-22';
const daysBetween = (a: string, b: string) =>
  (Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

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
  // Each test gets its own copy of the migrated template: none depends on what an earlier one wrote.
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => database.close());

  const rowCounts = async () => {
    const [locations] = await database.db.select({ n: count() }).from(providerLocations);
    const [claimRows] = await database.db.select({ n: count() }).from(claims);
    const [marker] = await database.db.select().from(appState).where(eq(appState.key, 'demo_data'));
    return { locations: locations?.n, claims: claimRows?.n, marker: marker?.value };
  };
  /** A seed that fails after its first batch of rows is written (as a full disk or a lost connection would). */
  const failingSeed = (options: { reset?: boolean; seed?: number } = {}) => {
    let written = 0;
    const result = seedDemoData(database.db, {
      locations: 30,
      today: TODAY,
      ...options,
      onProgress(done) {
        written = done;
        throw new Error('injected failure');
      },
    });
    return { result, written: () => written };
  };

  it('re-running migrations applies nothing and keeps them recorded as applied', async () => {
    expect(await database.migrate()).toBe(0);
    expect(await database.migrationsApplied()).toBe(true);
  });

  it('seeds demo data once, all rows or none', async () => {
    const first = await seedDemoData(database.db, { locations: 40, today: TODAY });
    expect(first).toEqual({ seeded: true, locations: 40, claims: 120 });
    const second = await seedDemoData(database.db, { locations: 40, today: TODAY });
    expect(second.seeded).toBe(false);
    expect(await rowCounts()).toEqual({
      locations: 40,
      claims: 120,
      marker: { seed: DEMO_SEED, locations: 40, today: TODAY },
    });
  });

  it('a failing seed leaves nothing behind', async () => {
    const seed = failingSeed();
    await expect(seed.result).rejects.toThrow('injected failure');
    expect(seed.written()).toBe(30); // the rows were inserted before the failure
    expect(await rowCounts()).toEqual({ locations: 0, claims: 0, marker: undefined });
  });

  it('seed --reset replaces the demo data', async () => {
    await seedDemoData(database.db, { locations: 40, today: TODAY });
    const [oldLocation] = await database.db.select({ id: providerLocations.id }).from(providerLocations).limit(1);
    const replaced = await seedDemoData(database.db, { locations: 25, seed: 7, today: TODAY, reset: true });
    expect(replaced).toEqual({ seeded: true, locations: 25, claims: 75 });
    expect(await rowCounts()).toEqual({ locations: 25, claims: 75, marker: { seed: 7, locations: 25, today: TODAY } });
    expect(await database.db.select().from(providerLocations).where(eq(providerLocations.id, oldLocation!.id))).toEqual(
      [],
    );
  });

  it('a failing seed --reset keeps the demo data it was to replace', async () => {
    await seedDemoData(database.db, { locations: 40, today: TODAY });
    const before = await rowCounts();
    const seed = failingSeed({ reset: true, seed: 7 });
    await expect(seed.result).rejects.toThrow('injected failure');
    expect(seed.written()).toBe(30);
    expect(await rowCounts()).toEqual(before);
  });

  it('usernames are unique whatever their case', async () => {
    // The same email for both: only the username's case may clash.
    const insert = (username: string) => createPerson({ database }, { username, email: 'a@example.com' });
    await insert('Office.Admin');
    await expect(insert('office.admin')).rejects.toThrow();
  });
});

// docs/decisions/0070-pglite-memory.md: the embedded database's memory is sized for one process.
describe('embedded database (PGlite)', () => {
  it('creates a new data folder and runs with the settings sized for one process, on every start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-pglite-new-'));
    try {
      const settings = async () => {
        const handle = await openPglite(dir);
        try {
          const names = PGLITE_SETTINGS.map((setting) => setting.split('=')[0]!);
          return rowsOf<{ name: string; setting: string }>(
            await handle.db.execute(
              sql`select name, current_setting(name) as setting from unnest(${sql.raw(
                `array[${names.map((n) => `'${n}'`).join(',')}]`,
              )}) as name`,
            ),
          ).map((row) => `${row.name}=${row.setting}`);
        } finally {
          await handle.close();
        }
      };
      expect(await settings()).toEqual([...PGLITE_SETTINGS]); // a new folder: created, then opened
      expect(await settings()).toEqual([...PGLITE_SETTINGS]); // the same folder again
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
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

  it('answers 503 while a migration is pending', async () => {
    const { app, database } = await buildTestApp();
    // As after deploying a build whose newest migration has not run yet: the bookkeeping lacks its row.
    await database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    const res = await app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'not_ready', database: 'up', migrations: 'pending' });
    await app.close();
  });
});
