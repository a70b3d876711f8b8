import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { migrationsFolder, openDatabase } from '../src/db/client';
import { providerLocations } from '../src/db/schema';
import { json, startFakeUpstream } from './support/fake-upstream';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

interface Running {
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<number | null>;
}

/** Starts `src/main.ts` as operators do (a separate process reading the environment) and waits until it listens. */
function startServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      SEED_LOCATIONS: '30',
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('\n')}`)), 60_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ child, url: match[1]!, output, exited });
        }
      });
    }
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join('\n')}`));
    });
  });
}

/**
 * One hashing thread at eight times the minimum memory: each verification takes a while (about a second on a busy
 * 2-core machine), so logins sent together queue for hashing.
 */
function startSlowHashingServer(): Promise<Running> {
  return startServer({
    DATA_DIR: join(mkdtempSync(join(tmpdir(), 'portal-process-')), 'data'),
    SEED_DEMO_DATA: 'false',
    PASSWORD_HASH_CONCURRENCY: '1',
    PASSWORD_HASH_MEMORY_KIB: String(8 * 19_456),
    SHUTDOWN_TIMEOUT_MS: '120000',
  });
}

async function stop(server: Running) {
  server.child.kill('SIGTERM');
  return server.exited;
}

// Each test starts whole server processes (a PGlite migrate and seed each): on a loaded 2-core machine one start
// takes tens of seconds, so the tests get the time the start-up wait itself allows.
describe('the server process', { timeout: 150_000 }, () => {
  it('refuses a bad setting with one readable line naming the variable, and exit code 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, PORT: 'abc' },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual(['Configuration error: PORT must be a port number (got "abc")']);
    expect(stdout).toBe('');
  });

  it('refuses TRUST_PROXY=true in production with one readable line, and exit code 1', async () => {
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
      TRUST_PROXY: 'true',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `Configuration error: TRUST_PROXY must list the proxies' addresses or CIDR ranges when NODE_ENV=production, not true (got "true")`,
    ]);
  });

  it('creates its data folder and demo data on first start, keeps them across a restart, and stops cleanly on SIGTERM', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'portal-process-')), 'data');
    // A data folder left world-readable by an earlier version is narrowed on start.
    mkdirSync(dataDir, { mode: 0o755 });
    const env = { DATA_DIR: dataDir };
    const first = await startServer(env);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(true);
    // The database, the secrets and the CMS handover are private to the portal's user.
    const mode = (path: string) => statSync(join(dataDir, path)).mode & 0o777;
    expect(mode('.')).toBe(0o700);
    expect(mode('pgdata')).toBe(0o700);
    expect(mode('pgdata/base')).toBe(0o700);
    expect(mode('secrets.json')).toBe(0o600);
    expect(mode('cms-webhook-secret')).toBe(0o600);
    const committed = (
      JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
    ).entries.length;
    expect(first.output.join('\n')).toContain(`applied ${committed} database migration(s)`);
    expect(first.output.join('\n')).toContain('created demo data');
    expect(await stop(first)).toBe(0);
    expect(first.output.join('\n')).toContain('"signal":"SIGTERM"');

    const second = await startServer(env);
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    const log = second.output.join('\n');
    expect(log).toContain('database schema is up to date');
    expect(log).not.toContain('created demo data');
    expect(await stop(second)).toBe(0);

    const db = await openDatabase({ dataDir });
    const [row] = await db.db.select({ n: count() }).from(providerLocations);
    await db.close();
    expect(row?.n).toBe(30);
  });

  it('on SIGTERM finishes the request in flight, refuses new connections, then exits 0', async () => {
    // A CMS that takes a second to answer keeps one request in flight while the signal arrives.
    const cms = await startFakeUpstream(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1000));
      json(res, 200, { data: [], meta: {} });
    });
    const dataDir = join(mkdtempSync(join(tmpdir(), 'portal-process-')), 'data');
    const server = await startServer({
      DATA_DIR: dataDir,
      SEED_DEMO_DATA: 'false',
      CMS_URL: cms.url,
      CMS_TOKEN: 'process-test-token',
    });
    try {
      const inFlight = fetch(`${server.url}/api/content/topics`);
      await expect.poll(() => cms.requests.length).toBe(1);
      server.child.kill('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ data: [], meta: {} });
      expect(await server.exited).toBe(0);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      server.child.kill('SIGKILL');
      await cms.close();
    }
  });
  it('on SIGTERM answers every login already queued for hashing normally, logs no error, then exits 0', async () => {
    // The logins queue for longer than the 10 s grace the server used to allow itself.
    const server = await startSlowHashingServer();
    const logins = 16;
    try {
      const login = (i: number) =>
        fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-portal-request': '1' },
          body: JSON.stringify({ username: `nobody${i}`, password: 'not the password' }),
        }).then(async (res) => ({ status: res.status, body: await res.text() }));
      const answers = Array.from({ length: logins }, (_, i) => login(i));
      // Every login is accepted once the first one is answered (they were sent together, one hash at a time).
      await Promise.race(answers);
      server.child.kill('SIGTERM');
      const results = await Promise.all(answers);
      expect(results).toEqual(
        Array.from({ length: logins }, () => ({ status: 401, body: JSON.stringify({ errorMessage: 'Login_Failed' }) })),
      );
      expect(await server.exited).toBe(0);
      const errors = server.output.filter((line) => /"level":(50|60)/.test(line));
      expect(errors).toEqual([]);
      expect(server.output.join('\n')).not.toContain('Terminating worker thread');
    } finally {
      server.child.kill('SIGKILL');
    }
  });
  it('on SIGTERM finishes the logins whose clients went away, before the database closes: no error, exit 0', async () => {
    // A client that gives up does not stop its handler, which still hashes and then writes its audit row; the
    // connection drain cannot see it (its connection is gone).
    const server = await startSlowHashingServer();
    try {
      const login = (i: number, signal?: AbortSignal) =>
        fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-portal-request': '1' },
          body: JSON.stringify({ username: `nobody${i}`, password: 'not the password' }),
          signal,
        });
      const first = login(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const giveUp = new AbortController();
      const abandoned = Array.from({ length: 6 }, (_, i) => login(i + 1, giveUp.signal).catch(() => 'aborted'));
      // When the first is answered the others wait in the hashing queue; their clients then go away.
      expect((await first).status).toBe(401);
      giveUp.abort();
      expect(await Promise.all(abandoned)).toEqual(Array.from({ length: 6 }, () => 'aborted'));
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const errors = server.output.filter((line) => /"level":(50|60)/.test(line));
      expect(errors).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

describe.runIf(inject('postgresTemplate'))('the server process on PostgreSQL', () => {
  it('migrates an empty PostgreSQL database, writes demo data there, and restarts without re-applying', async () => {
    const template = inject('postgresTemplate')!;
    const pg = (await import('pg')).default;
    const name = `portal_process_${Date.now()}`;
    const admin = new pg.Client({ connectionString: template.url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(template.url);
    url.pathname = `/${name}`;
    const dataDir = join(mkdtempSync(join(tmpdir(), 'portal-process-pg-')), 'data');
    try {
      const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
      const first = await startServer(env);
      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
      expect(first.output.join('\n')).toContain('"database":"postgres"');
      const committed = (
        JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
      ).entries.length;
      expect(first.output.join('\n')).toContain(`applied ${committed} database migration(s)`);
      expect(await stop(first)).toBe(0);
      expect(existsSync(join(dataDir, 'pgdata'))).toBe(false);

      const second = await startServer(env);
      expect(second.output.join('\n')).toContain('database schema is up to date');
      expect(await stop(second)).toBe(0);

      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const { rows } = await client.query('select count(*)::int as n from provider_locations');
      await client.end();
      expect(rows[0].n).toBe(30);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
