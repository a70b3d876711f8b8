// `npm start` in cms/: builds the admin panel the first time and after src/admin changed (about a minute), then
// runs Strapi.
// SIGTERM/SIGINT are passed on so Strapi closes its database cleanly.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { buildAdminIfNeeded } from './build-admin.mjs';

process.env.STRAPI_TELEMETRY_DISABLED = 'true';
const appDir = fileURLToPath(new URL('..', import.meta.url));
const strapi = join(appDir, 'node_modules', '.bin', 'strapi');

const built = buildAdminIfNeeded();
if (built !== 0) process.exit(built);
const child = spawn(strapi, ['start'], { cwd: appDir, stdio: 'inherit', env: process.env });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
// `npm start` runs us under `sh -c`, which does not pass on a SIGTERM sent to npm: if our parent goes away,
// stop Strapi instead of leaving it holding the port.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) child.kill('SIGTERM');
}, 1000).unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
