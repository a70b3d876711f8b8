// Bundles the server into dist/main.js (workspace TypeScript such as @portal/contracts is inlined; npm
// packages stay external) and copies the committed SQL migrations and the password hasher's worker beside it.
import { build } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
await build({
  // demo-directory: `npm start`'s demo enterprise directory (an OpenID provider), never run in production.
  entryPoints: { main: 'src/main.ts', 'seed-cli': 'src/db/seed-cli.ts', 'demo-directory': 'src/demo-directory/cli.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  // @portal/contracts is TypeScript source: bundle it instead of leaving an import Node cannot load.
  alias: { '@portal/contracts': '../packages/contracts/src' },
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
// The demo's sample feed files, imported on first start (src/feeds/demo-feeds.ts reads them beside the bundle).
cpSync('src/feeds/demo-feeds', 'dist/demo-feeds', { recursive: true });
// The password hasher's worker threads load this file beside the bundle (new URL(…, import.meta.url)).
cpSync('src/platform/password-hash-worker.mjs', 'dist/password-hash-worker.mjs');
// openPglite creates a new embedded database in a child process running this script (beside the bundle).
cpSync('src/db/pglite-init.mjs', 'dist/pglite-init.mjs');
console.log('server built into server/dist');
