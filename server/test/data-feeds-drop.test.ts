import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client';
import { demoFeedFile } from '../src/feeds/demo-feeds';
import { scanDropFolder } from '../src/feeds/drop-folder';
import { buildTestApp, createTestDatabase, testConfig } from './helpers';

/** The drop-folder job (docs/requirements/data-feeds.md#drop-folder): only finished files, moved with their report. */
describe('data feeds: the drop folder', () => {
  let database: DatabaseHandle;
  let folder: string;
  const now = () => new Date('2026-11-23T02:00:00Z');
  const [header, ...rows] = readFileSync(demoFeedFile('provider-enrollment'), 'utf8').trimEnd().split('\n');
  const lines = (from: number, to: number) => `${header}\n${rows.slice(from, to).join('\n')}\n`;
  const inbox = () => join(folder, 'provider-enrollment');
  const list = (...parts: string[]) =>
    existsSync(join(folder, ...parts)) ? readdirSync(join(folder, ...parts)).sort() : [];

  beforeAll(async () => {
    database = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), 'feeds-drop-'));
    mkdirSync(inbox());
  });
  afterAll(async () => {
    await database.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('takes a file once renamed into place, never one still being written, and moves it to done/', async () => {
    writeFileSync(join(inbox(), 'locations-1.csv'), lines(0, 50));
    writeFileSync(join(inbox(), 'locations-2.csv.part'), lines(50, 60)); // still being written
    writeFileSync(join(inbox(), '.locations-3.csv'), lines(60, 70)); // likewise, a dot name
    const first = await scanDropFolder(database, folder, { now });
    expect(first.map((o) => [o.file, o.outcome, o.summary?.inserted])).toEqual([['locations-1.csv', 'imported', 50]]);
    expect(list('provider-enrollment')).toEqual(['.locations-3.csv', 'locations-2.csv.part']);
    expect(list('done', 'provider-enrollment')).toEqual(['20261123T020000Z-locations-1.csv']);

    renameSync(join(inbox(), 'locations-2.csv.part'), join(inbox(), 'locations-2.csv'));
    const second = await scanDropFolder(database, folder, { now });
    expect(second.map((o) => [o.file, o.outcome, o.summary?.inserted])).toEqual([['locations-2.csv', 'imported', 10]]);
    expect(list('provider-enrollment')).toEqual(['.locations-3.csv']);
  });

  it('moves a refused file to rejected/ with the reason and its 0600 reject report; the data stays as it was', async () => {
    const bad = lines(70, 80).replace(rows[71]!.split(',')[0]!, '1234567890');
    writeFileSync(join(inbox(), 'locations-4.csv'), bad);
    const [outcome] = await scanDropFolder(database, folder, { now });
    expect(outcome).toMatchObject({ file: 'locations-4.csv', outcome: 'rejected' });
    expect(outcome!.message).toMatch(/^Too_Many_Rejects: 1 of 10 rows were rejected/);
    const moved = join(folder, 'rejected', 'provider-enrollment', '20261123T020000Z-locations-4.csv');
    expect(readFileSync(`${moved}.refusal.txt`, 'utf8')).toContain('Too_Many_Rejects');
    expect(readFileSync(`${moved}.rejects.csv`, 'utf8')).toBe('LINE,COLUMN,CODE,VALUE\n3,NPI,Invalid_NPI,1234567890\n');
    expect(statSync(`${moved}.rejects.csv`).mode & 0o777).toBe(0o600);
    const connection = await database.dedicated();
    const { rows: counted } = await connection.query<{ n: number }>(
      'select count(*)::int as n from provider_locations',
    );
    await connection.close();
    expect(counted[0]!.n).toBe(60);
  });

  it('a file imported before goes to done/ with a note, changing nothing', async () => {
    writeFileSync(join(inbox(), 'locations-again.csv'), lines(0, 50));
    const [outcome] = await scanDropFolder(database, folder, { now });
    expect(outcome).toMatchObject({ outcome: 'already-imported' });
    expect(outcome!.message).toMatch(/^Already_Imported: already imported \(run 1, /);
    expect(list('done', 'provider-enrollment')).toContain('20261123T020000Z-locations-again.csv.refusal.txt');
  });

  it('a listening server with FEED_DROP_FOLDER picks a dropped file up by itself', async () => {
    const watched = mkdtempSync(join(tmpdir(), 'feeds-watched-'));
    mkdirSync(join(watched, 'provider-enrollment'));
    const { app } = await buildTestApp({
      config: testConfig({ FEED_DROP_FOLDER: watched, FEED_DROP_INTERVAL_MS: '1000' }),
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      writeFileSync(join(watched, 'provider-enrollment', 'nightly.csv'), lines(0, 5));
      const done = join(watched, 'done', 'provider-enrollment');
      const deadline = Date.now() + 20_000;
      while (!(existsSync(done) && readdirSync(done).some((n) => n.endsWith('-nightly.csv')))) {
        if (Date.now() > deadline) throw new Error('the dropped file was not imported');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const connection = await app.database.dedicated();
      const { rows: runs } = await connection.query<{ started_by: string; rows_inserted: number }>(
        'select started_by, rows_inserted from import_runs',
      );
      await connection.close();
      expect(runs).toEqual([{ started_by: 'job', rows_inserted: 5 }]);
    } finally {
      await app.close();
      rmSync(watched, { recursive: true, force: true });
    }
  });
});
