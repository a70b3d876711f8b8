import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../src/db/client';
import { demoFeedFile } from '../src/feeds/demo-feeds';
import { importFeed } from '../src/feeds/import';

const CLI = fileURLToPath(new URL('../src/feeds/import-cli.ts', import.meta.url));
const CLAIMS = 300_000;

// A process killed mid-import (SIGKILL: no handler runs) must leave the previous data as it was, and the next run
// must succeed (docs/requirements/data-feeds.md#how-a-file-lands). PostgreSQL only: a killed PGlite process takes
// its whole database with it, which the PGlite folder's own recovery covers.
describe.runIf(inject('postgresTemplate'))('data feeds: a kill mid-import on PostgreSQL', () => {
  it('SIGKILL while the claims stream in: nothing of the file lands, the next run imports it whole', async () => {
    const template = inject('postgresTemplate')!;
    const name = `portal_feeds_kill_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: template.url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template.database}`);
    const url = new URL(template.url);
    url.pathname = `/${name}`;
    const database = openPostgres(url.toString(), 2);
    const check = new pg.Client({ connectionString: url.toString() });
    await check.connect();
    const q = async (text: string) => (await check.query(text)).rows;
    const folder = mkdtempSync(join(tmpdir(), 'feeds-kill-'));
    try {
      await importFeed(database, {
        kind: 'provider-enrollment',
        file: demoFeedFile('provider-enrollment'),
        startedBy: 'command',
      });
      await importFeed(database, { kind: 'paid-claims', file: demoFeedFile('paid-claims'), startedBy: 'command' });
      const count = async () => (await q(`select count(*)::int as n from claims`))[0] as { n: number };
      expect(await count()).toEqual({ n: 3000 });

      // 300,000 new claims of the demo's first location.
      const big = join(folder, 'claims.csv');
      const out = createWriteStream(big);
      out.write(
        'CLAIM_NUMBER,NPI,PTAN,LINE_OF_BUSINESS,PATIENT_MBI,DATE_OF_SERVICE,PAID_AMOUNT,PAID_DATE,CHECK_EFT_NUMBER\n',
      );
      for (let i = 0; i < CLAIMS; i++)
        out.write(
          `8${String(i).padStart(12, '0')},2673073450,420000,A,1EG4TE5MK73,2026-10-01,100.00,2026-11-01,EFT${i}\n`,
        );
      out.end();
      await finished(out);

      const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'paid-claims', big], {
        env: { ...process.env, DATABASE_URL: url.toString(), DATA_DIR: folder, LOG_LEVEL: 'silent' },
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      // Kill it once its run has started and its rows are streaming into the staging table.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const rows = await q(
          `select count(*)::int as n from pg_stat_activity where datname = '${name}' and query ilike 'copy feed_stage%'`,
        );
        if ((rows[0] as { n: number }).n > 0) break;
        if (Date.now() > deadline) throw new Error('the import never reached its COPY');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      expect(await count()).toEqual({ n: 3000 });
      expect(await q(`select outcome from import_runs where kind = 'paid-claims' order by id`)).toEqual([
        { outcome: 'succeeded' },
        { outcome: 'running' },
      ]);

      // The server noticed the dead connection: the lock is free again and the next run lands the whole file.
      let summary;
      for (let attempt = 0; ; attempt++) {
        try {
          summary = await importFeed(database, { kind: 'paid-claims', file: big, startedBy: 'command' });
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== 'Import_Running' || attempt > 50) throw err;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      expect(summary).toMatchObject({ read: CLAIMS, inserted: CLAIMS, rejected: 0 });
      expect(await count()).toEqual({ n: 3000 + CLAIMS });
      expect(await q(`select outcome from import_runs where kind = 'paid-claims' order by id`)).toEqual([
        { outcome: 'succeeded' },
        { outcome: 'interrupted' },
        { outcome: 'succeeded' },
      ]);
    } finally {
      await check.end();
      await database.close();
      rmSync(folder, { recursive: true, force: true });
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 180_000);
});
