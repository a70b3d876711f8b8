// `npm start` in cms/: builds the admin panel the first time (about a minute), then runs Strapi.
// SIGTERM/SIGINT are passed on so Strapi closes its database cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

process.env.STRAPI_TELEMETRY_DISABLED = 'true';
const appDir = fileURLToPath(new URL('..', import.meta.url));
const strapi = join(appDir, 'node_modules', '.bin', 'strapi');

if (!existsSync(join(appDir, 'dist', 'build', 'index.html')) && !existsSync(join(appDir, 'build', 'index.html'))) {
  console.log('[cms] building the Strapi admin panel (first start only)');
  const build = spawnSync(strapi, ['build', '--minify'], { cwd: appDir, stdio: 'inherit', env: process.env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const child = spawn(strapi, ['start'], { cwd: appDir, stdio: 'inherit', env: process.env });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
// `npm start` runs us under `sh -c`, which does not pass on a SIGTERM sent to npm: if our parent goes away,
// stop Strapi instead of leaving it holding the port.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) child.kill('SIGTERM');
}, 1000).unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
