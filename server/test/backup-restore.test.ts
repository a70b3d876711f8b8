import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../src/db/client';
import { seedDemoData } from '../src/db/demo-data';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS, seedDemoAccounts } from '../src/modules/auth/demo-accounts';
import { PasswordHasher } from '../src/platform/password-hashing';
import { currentTotp } from '../src/identity/mfa/totp';
import { loadSecrets } from '../src/platform/secrets';
import { buildTestApp, callAs, testConfig } from './helpers';

/** `pg_dump`/`pg_restore` from PATH, else from the Debian PostgreSQL 15 folder CI installs. */
function pgBinary(name: 'pg_dump' | 'pg_restore'): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/lib/postgresql/15/bin'])
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${name} not found on PATH or in /usr/lib/postgresql/15/bin`);
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

// The backup procedure of docs/production.md#backup-and-restore, run for real: it needs a PostgreSQL
// server, so it runs with TEST_DATABASE_URL only (CI's PostgreSQL run).
describe.runIf(inject('postgresTemplate'))('backup and restore with pg_dump and pg_restore', () => {
  it('a populated database dumped with pg_dump -Fc and restored into an empty one serves a demo login (password + TOTP)', async () => {
    const template = inject('postgresTemplate')!;
    const suffix = randomBytes(6).toString('hex');
    const source = `portal_backup_${suffix}`;
    const restored = `portal_restored_${suffix}`;
    const dir = mkdtempSync(join(tmpdir(), 'portal-backup-'));
    const dumpFile = join(dir, 'portal.dump');
    // The dump holds encrypted TOTP secrets: the restored copy needs the same ENCRYPTION_KEY (docs/production.md).
    const secrets = {
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
    };
    const admin = new pg.Client({ connectionString: template.url });
    await admin.connect();
    try {
      await admin.query(`create database ${source}`);
      const populated = openPostgres(databaseUrl(template.url, source), 2);
      const hasher = new PasswordHasher({ memoryKib: 19_456, iterations: 2, maxConcurrent: 2 });
      try {
        await populated.migrate();
        await seedDemoData(populated.db, { locations: 20, today: '2026-11-22' });
        const config = testConfig(secrets);
        const accounts = await seedDemoAccounts(populated.db, hasher, loadSecrets(config).encryptionKey);
        expect(accounts).toBeGreaterThanOrEqual(7);
        rmSync(config.dataDir, { recursive: true, force: true });
      } finally {
        await hasher.close();
        await populated.close();
      }

      execFileSync(pgBinary('pg_dump'), ['-Fc', '--no-owner', '-f', dumpFile, databaseUrl(template.url, source)]);
      expect(statSync(dumpFile).size).toBeGreaterThan(0);
      // Nothing of the source is used from here: dropped before the restore.
      await admin.query(`drop database ${source} with (force)`);
      await admin.query(`create database ${restored}`);
      execFileSync(pgBinary('pg_restore'), [
        '--no-owner',
        '--exit-on-error',
        '-d',
        databaseUrl(template.url, restored),
        dumpFile,
      ]);

      const database = openPostgres(databaseUrl(template.url, restored), 2);
      // The restored copy is complete: no migration left to apply.
      expect(await database.migrate()).toBe(0);
      const { app } = await buildTestApp({ database, config: testConfig(secrets) });
      try {
        expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ status: 'ready' });
        const client = { ip: '10.77.0.1' } as { ip: string; cookie?: string };
        const login = await callAs(app, client, 'POST', '/api/auth/login', {
          username: 'demo.admin.j5',
          password: DEMO_PASSWORD,
        });
        expect(login.json()).toEqual({ data: { next: 'mfa' } });
        const code = await currentTotp(DEMO_TOTP_SECRETS['demo.admin.j5']!);
        const mfa = await callAs(app, client, 'POST', '/api/auth/mfa', { code });
        expect(mfa.json()).toEqual({ data: { loggedIn: true } });
        const session = await callAs(app, client, 'GET', '/api/session');
        expect(session.json()).toMatchObject({ data: { loggedIn: true, username: 'demo.admin.j5' } });
      } finally {
        await app.close();
      }
    } finally {
      await admin.query(`drop database if exists ${source} with (force)`);
      await admin.query(`drop database if exists ${restored} with (force)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
