// Root postinstall: the CMS (cms/) keeps its own lockfile because Strapi's admin needs React 18 while
// the web app uses React 19, so it is not an npm workspace. Installing it here keeps the README at two commands.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const cmsDir = fileURLToPath(new URL('../cms/', import.meta.url));
const lockfile = join(cmsDir, 'package-lock.json');
const marker = join(cmsDir, 'node_modules', '.portal-install-hash');

if (process.env.PORTAL_SKIP_CMS_INSTALL === 'true') process.exit(0);
if (!existsSync(lockfile)) {
  console.log('[install-cms] no cms/package-lock.json yet; skipping the CMS install');
  process.exit(0);
}
const hash = createHash('sha256').update(readFileSync(lockfile)).update(process.version).digest('hex');
if (existsSync(marker) && readFileSync(marker, 'utf8') === hash) {
  console.log('[install-cms] CMS dependencies are up to date');
  process.exit(0);
}
console.log('[install-cms] installing the CMS dependencies (npm ci in cms/; the first time takes a few minutes)');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: cmsDir, stdio: 'inherit' });
if (result.status !== 0) {
  console.error('[install-cms] npm ci in cms/ failed; see the output above');
  process.exit(result.status ?? 1);
}
writeFileSync(marker, hash);
