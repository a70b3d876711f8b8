import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { appState, providerLocations } from '../src/db/schema';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newDataDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'portal-data-folder-'));
  folders.push(folder);
  return join(folder, 'data');
}

/** Runs a server entry point as operators do (a separate process reading the environment) until it exits. */
function run(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: '0', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('a damaged data/secrets.json', () => {
  it.each([
    ['not JSON', '{"sessionSecret": "', /secrets\.json is not valid JSON/],
    [
      'a secret too short',
      JSON.stringify({ sessionSecret: 'short', encryptionKey: 'a'.repeat(64) }),
      /secrets\.json is not valid \(sessionSecret must be at least 32 characters\)/,
    ],
    [
      'a key missing',
      JSON.stringify({ sessionSecret: 's'.repeat(40) }),
      /secrets\.json is not valid \(encryptionKey is missing\)/,
    ],
  ])('(%s) stops the server with one configuration line and exit code 1', async (_case, content, problem) => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'secrets.json'), content, { mode: 0o600 });
    const { code, stdout, stderr } = await run('src/main.ts', [], { DATA_DIR: dataDir, SEED_DEMO_DATA: 'false' });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: /);
    expect(lines[0]).toMatch(problem);
    expect(lines[0]).toContain('set SESSION_SECRET and ENCRYPTION_KEY');
    expect(stdout).toBe('');
  });
});

// Runs the seed command as child processes: slow on a loaded machine.
describe('npm run seed', { timeout: 120_000 }, () => {
  it('creates the demo data once, and --reset replaces it', async () => {
    const dataDir = newDataDir();
    const seed = (...args: string[]) => run('src/db/seed-cli.ts', args, { DATA_DIR: dataDir });

    const first = await seed('--locations', '12');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Created 12 locations and 36 claims');

    const again = await seed('--locations', '5');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Demo data already exists (12 locations); pass --reset to replace it.');

    const reset = await seed('--reset', '--locations', '5', '--seed', '7');
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('Created 5 locations and 15 claims');

    const database = await openDatabase({ dataDir });
    try {
      const [row] = await database.db.select({ n: count() }).from(providerLocations);
      const [marker] = await database.db.select().from(appState).where(eq(appState.key, 'demo_data'));
      expect(row?.n).toBe(5);
      expect(marker?.value).toMatchObject({ seed: 7, locations: 5 });
    } finally {
      await database.close();
    }
    // Three CLI processes, each compiling with tsx and opening an embedded database: more than the default 30 s
    // on a loaded two-core machine.
  }, 120_000);

  it.each(['src/db/seed-cli.ts', 'src/modules/registration/demo-combinations-cli.ts'])(
    '%s stops on a bad setting with one configuration line and exit code 1',
    async (script) => {
      const { code, stdout, stderr } = await run(script, [], { DATA_DIR: newDataDir(), PORT: 'abc' });
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual(['Configuration error: PORT must be a port number (got "abc")']);
      expect(stdout).toBe('');
    },
  );
});
