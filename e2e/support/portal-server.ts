import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../server/test/support/strapi';

export { freePort };

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Builds what `npm start` builds: the SPA (web/dist), its server entry (web/dist-ssr) and the bundled server (server/dist). */
export function buildProduction() {
  // vitest sets NODE_ENV=test, which would make Vite bundle React's development build: build as `npm run build` does.
  const { NODE_ENV: _testEnv, ...env } = process.env;
  for (const [label, args, cwd] of [
    ['web', ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', 'web'], repoRoot],
    // The .br/.gz files `npm run build -w web` writes after Vite, served as they are (docs/decisions/0019).
    ['precompress', ['scripts/precompress.mjs', 'web/dist'], repoRoot],
    // The server entry of the public pages (web/package.json's build does the same).
    [
      'web server entry',
      [
        '../node_modules/vite/bin/vite.js',
        'build',
        '--logLevel',
        'warn',
        '--ssr',
        'src/entry-server.tsx',
        '--outDir',
        'dist-ssr',
      ],
      join(repoRoot, 'web'),
    ],
    ['server', ['build.mjs'], join(repoRoot, 'server')],
  ] as const) {
    const result = spawnSync(process.execPath, [...args], { cwd, env, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`building the ${label} failed`);
  }
}

export interface RunningPortal {
  url: string;
  dataDir: string;
  process: ChildProcess;
  logs: string[];
  stop(): Promise<void>;
}

/** Starts the production server on a free port with its own data folder. */
export async function startPortal(
  env: Record<string, string> = {},
  options: { port?: number; dataDir?: string } = {},
): Promise<RunningPortal> {
  // A port the settings name (`PORT`, with its `PUBLIC_URL`) when something else must know it first: the demo
  // directory the help-desk console signs in through registers the portal's callback address before it starts.
  const port = options.port ?? (env.PORT ? Number(env.PORT) : await freePort());
  // Browsers reach it as localhost, the host name the seeded content's own-domain links use.
  const url = `http://localhost:${port}`;
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: 'localhost',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SEED_LOCATIONS: '30',
      LOG_LEVEL: 'info',
      // Any free port: several portals run at once in the e2e suite.
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    createInterface({ input: stream }).on('line', (l) => logs.push(l));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal server exited during start:\n${logs.join('\n')}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the portal server did not become ready:\n${logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    process: child,
    logs,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
