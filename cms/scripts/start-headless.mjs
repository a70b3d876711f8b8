// Starts Strapi without its admin panel (tests, CI, API-only instances): no admin build is needed.
// CMS_SERVE_ADMIN=true serves the admin panel built by `npm run build` (cms/build), for the editors' browser tests.
// Prints one line `CMS_READY <url>` when it accepts requests; stops cleanly on SIGTERM/SIGINT.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

process.env.STRAPI_TELEMETRY_DISABLED = 'true';
const appDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const { createStrapi } = require('@strapi/strapi');

const app = createStrapi({
  appDir,
  distDir: appDir,
  autoReload: false,
  serveAdminPanel: process.env.CMS_SERVE_ADMIN === 'true',
});
await app.start();
const host = app.config.get('server.host');
const port = app.config.get('server.port');
console.log(`CMS_READY http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    try {
      await app.destroy();
    } finally {
      process.exit(0);
    }
  });
}
