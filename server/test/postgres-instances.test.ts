import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { migrationsFolder, openPostgres } from '../src/db/client';
import { seedDemoData } from '../src/db/demo-data';

const committedMigrations = (
  JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as { entries: unknown[] }
).entries.length;

// Several instances share one PostgreSQL server; the embedded PGlite has one process per folder, so these run only
// with TEST_DATABASE_URL (the global setup warns that the PostgreSQL run was skipped otherwise).
describe.runIf(inject('postgresTemplate'))('several instances starting at once on PostgreSQL', () => {
  it('two instances migrating and seeding an empty database at the same moment: one does each, the other waits and finds it done', async () => {
    const template = inject('postgresTemplate')!;
    const name = `portal_instances_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: template.url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(template.url);
    url.pathname = `/${name}`;
    // Each instance has its own pool, as separate processes do.
    const instances = [openPostgres(url.toString(), 2), openPostgres(url.toString(), 2)] as const;
    try {
      const applied = await Promise.all(instances.map((instance) => instance.migrate()));
      expect([...applied].sort()).toEqual([0, committedMigrations]);
      for (const instance of instances) expect(await instance.migrationsApplied()).toBe(true);

      const seeded = await Promise.all(
        instances.map((instance) => seedDemoData(instance.db, { locations: 20, today: '2026-11-22' })),
      );
      expect(seeded.map((s) => s.seeded).sort()).toEqual([false, true]);
      expect(seeded.find((s) => !s.seeded)).toEqual({ seeded: false, locations: 20, claims: 0 });

      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const { rows } = await check.query(
        'select (select count(*)::int from provider_locations) as locations, (select count(*)::int from claims) as claims, (select count(*)::int from drizzle.__drizzle_migrations) as migrations',
      );
      await check.end();
      expect(rows[0]).toEqual({ locations: 20, claims: 60, migrations: committedMigrations });
    } finally {
      for (const instance of instances) await instance.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
