import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../src/config';

export const cmsDir = join(repoRoot, 'cms');

/**
 * The machine's Node runs the CMS: its native SQLite module (better-sqlite3) is compiled for it, while CI also
 * runs the server suite under another Node (docs/requirements/platform.md#testing-rules). CMS_NODE overrides the path.
 */
export const cmsNode = process.env.CMS_NODE ?? '/usr/bin/node';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Fails loudly (never skips) when the CMS is not installed: these tests exist to run against the real Strapi. */
export function assertCmsInstalled() {
  if (!existsSync(join(cmsDir, 'scripts', 'start-headless.mjs'))) {
    throw new Error(
      `The real-Strapi tests need ${join(cmsDir, 'scripts', 'start-headless.mjs')}, which does not exist.`,
    );
  }
  if (!existsSync(join(cmsDir, 'node_modules', '@strapi', 'strapi'))) {
    throw new Error(
      'The CMS is not installed (cms/node_modules is missing). Run `npm install` at the repository root (its postinstall installs cms/), then run the tests again.',
    );
  }
  if (!existsSync(join(cmsDir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))) {
    throw new Error(
      "The CMS's SQLite module is not built (cms/node_modules/better-sqlite3/build/Release is missing). Run `npm ci` in cms/ with the machine's Node (it compiles with node-gyp; CI installs build-essential and python3).",
    );
  }
  if (!existsSync(cmsNode))
    throw new Error(`The CMS runs on the machine's Node at ${cmsNode}, which does not exist (set CMS_NODE).`);
}

export interface RunningStrapi {
  url: string;
  port: number;
  /** The throw-away SQLite file the CMS writes. */
  databaseFile: string;
  child: ChildProcess;
  /** Everything the CMS printed (stdout and stderr). */
  logs: string[];
  /** Milliseconds from spawn to `CMS_READY`. */
  startupMs: number;
  /** Graceful stop (SIGTERM). */
  stop(): Promise<void>;
  /** Abrupt crash (SIGKILL), as when the CMS host dies. */
  kill(): Promise<void>;
}

export interface StartStrapiOptions {
  /** The portal's data folder: the CMS writes the API token there and reads/creates the webhook secret. */
  portalDataDir: string;
  /** Where the CMS sends its webhook (the portal's /api/content/webhook), if anywhere. */
  webhookUrl?: string;
  port?: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Starts the real Strapi without its admin panel (`cms/scripts/start-headless.mjs`) on a throw-away SQLite
 * file, and resolves once it prints `CMS_READY <url>`.
 */
export async function startStrapi(options: StartStrapiOptions): Promise<RunningStrapi> {
  assertCmsInstalled();
  const port = options.port ?? (await freePort());
  const dbDir = mkdtempSync(join(tmpdir(), 'portal-cms-test-'));
  const started = Date.now();
  const child = spawn(cmsNode, ['scripts/start-headless.mjs'], {
    cwd: cmsDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      CMS_HOST: '127.0.0.1',
      CMS_PORT: String(port),
      CMS_DATABASE_FILENAME: join(dbDir, 'cms.db'),
      // Seed images of throw-away databases go to the temporary folder, not cms/public/uploads.
      CMS_PUBLIC_DIR: join(dbDir, 'public'),
      CMS_PORTAL_TOKEN_FILE: join(options.portalDataDir, 'cms-api-token'),
      CMS_PORTAL_WEBHOOK_SECRET_FILE: join(options.portalDataDir, 'cms-webhook-secret'),
      ...(options.webhookUrl ? { CMS_PORTAL_WEBHOOK_URL: options.webhookUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => rmSync(dbDir, { recursive: true, force: true }));
  const timeoutMs = options.timeoutMs ?? 180_000;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Strapi did not print CMS_READY within ${timeoutMs} ms:\n${logs.slice(-40).join('\n')}`));
    }, timeoutMs);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        logs.push(line);
        const ready = /^CMS_READY (\S+)/.exec(line);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]!.replace(/\/+$/, ''));
        }
      });
    }
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Strapi exited (${code ?? signal}) while starting:\n${logs.slice(-40).join('\n')}`));
    });
  });
  const startupMs = Date.now() - started;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    port,
    child,
    logs,
    startupMs,
    databaseFile: join(dbDir, 'cms.db'),
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}
