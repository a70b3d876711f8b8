// One portal server for a benchmark: production settings, no demo data, no web build, its own data folder, listening
// on a free port. PostgreSQL at `databaseUrl` (by default BENCH_DATABASE_URL), embedded PGlite when there is none
// (or `databaseUrl: null`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { openDatabase } from '../../server/src/db/client';

export interface BenchApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Awaited<ReturnType<typeof openDatabase>>;
  config: ReturnType<typeof loadConfig>;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Headers a browser's state-changing call carries (CSRF check: custom header and same origin). */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** `env`: the bench's own settings on top (e.g. a raised rate limit, so one load generator is not throttled). */
export async function startBenchApp(
  name: string,
  env: Record<string, string> = {},
  { databaseUrl = process.env.BENCH_DATABASE_URL }: { databaseUrl?: string | null } = {},
): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `portal-bench-${name}-`));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
    ENCRYPTION_KEY: '0'.repeat(64),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', // production logs at info: two lines per request
    DATA_DIR: dataDir,
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    SEED_DEMO_DATA: 'false',
    DATABASE_URL: databaseUrl ?? undefined,
    PUBLIC_URL: 'http://localhost:3000',
    TRUST_PROXY: 'false',
    ...env,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir, poolMax: 10 });
  await database.migrate();
  const app = await buildApp({ config, database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    database,
    config,
    base,
    headers: { 'x-portal-request': '1', origin: new URL(config.publicUrl).origin, 'content-type': 'application/json' },
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
