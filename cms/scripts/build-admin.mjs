// Builds the Strapi admin panel into cms/build when it is missing or older than the admin code in src/admin/
// (about a minute). `npm start` and the editors' browser tests run it; run alone: `node scripts/build-admin.mjs`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = fileURLToPath(new URL('..', import.meta.url));

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function adminBuildNeeded() {
  const index = join(appDir, 'build', 'index.html');
  if (!existsSync(index)) return true;
  const sources = join(appDir, 'src', 'admin');
  return existsSync(sources) && newestChange(sources) > statSync(index).mtimeMs;
}

export function buildAdminIfNeeded() {
  if (!adminBuildNeeded()) return 0;
  console.log('[cms] building the Strapi admin panel (first start, or src/admin changed)');
  const build = spawnSync(join(appDir, 'node_modules', '.bin', 'strapi'), ['build', '--minify'], {
    cwd: appDir,
    stdio: 'inherit',
    env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' },
  });
  return build.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(buildAdminIfNeeded());
