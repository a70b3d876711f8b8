import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, repoRoot } from './portal-server';

export interface RunningCms {
  url: string;
  process: ChildProcess;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Starts the real Strapi CMS without its admin panel on a throw-away SQLite file. It runs on the machine's own
 * Node (/usr/bin/node): its native SQLite module is built for it, even when the tests run on another Node.
 * The CMS hands the portal its API token and webhook secret through files in the portal's data folder.
 */
export async function startCms(options: { portalDataDir: string; webhookUrl: string }): Promise<RunningCms> {
  const cmsDir = join(repoRoot, 'cms');
  if (!existsSync(join(cmsDir, 'node_modules', '@strapi', 'strapi'))) {
    throw new Error('The CMS is not installed (cms/node_modules is missing). Run `npm install` at the repository root.');
  }
  const port = await freePort();
  const dbDir = mkdtempSync(join(tmpdir(), 'portal-cms-'));
  const child = spawn(process.env.CMS_NODE ?? '/usr/bin/node', ['scripts/start-headless.mjs'], {
    cwd: cmsDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      CMS_HOST: '127.0.0.1',
      CMS_PORT: String(port),
      CMS_DATABASE_FILENAME: join(dbDir, 'cms.db'),
      CMS_PORTAL_TOKEN_FILE: join(options.portalDataDir, 'cms-api-token'),
      CMS_PORTAL_WEBHOOK_SECRET_FILE: join(options.portalDataDir, 'cms-webhook-secret'),
      CMS_PORTAL_WEBHOOK_URL: options.webhookUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the CMS did not start within 180 s:\n${logs.slice(-40).join('\n')}`)), 180_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        logs.push(line);
        const ready = /^CMS_READY (\S+)/.exec(line);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]!);
        }
      });
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the CMS exited (${code}) during start:\n${logs.slice(-40).join('\n')}`));
    });
  });
  return {
    url,
    process: child,
    logs,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
