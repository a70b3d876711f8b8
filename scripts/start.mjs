// `npm start`: builds the web app and the server, then runs the CMS and the portal server together with
// their logs interleaved and prefixed; Ctrl-C (or SIGTERM) stops both. The portal does not wait for the CMS:
// content answers 502 Content_Unavailable until the CMS is up, and everything else works meanwhile.
// Outside production the portal logs one readable line per event (LOG_FORMAT=pretty, unless set); once both
// answer, the last lines say where the site and the CMS admin are.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { portalNodeFlags } from './portal-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(label, args) {
  console.log(`[start] ${label}`);
  const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[start] ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

run('building the web app and the server', ['run', 'build']);

const env = { ...process.env };
if (env.NODE_ENV !== 'production') env.LOG_FORMAT ??= 'pretty';
// The demo shows the emails the portal sends at /dev/mail. Never in production (the server refuses MAIL_VIEWER=true
// there); an explicit MAIL_VIEWER setting wins.
if (env.NODE_ENV !== 'production' && !env.MAIL_VIEWER) env.MAIL_VIEWER = 'true';
// Piped through this script, the children cannot see a terminal: keep colours when there is one.
if (process.stdout.isTTY && env.NO_COLOR === undefined) env.FORCE_COLOR ??= '1';
// The portal finds a CMS started on another port.
if (env.CMS_PORT && !env.CMS_URL) env.CMS_URL = `http://127.0.0.1:${env.CMS_PORT}`;
// The help-desk console's directory: outside production, unless one is configured, a demo OpenID provider with demo
// operators on its own port (docs/requirements/help-desk.md), its client secret made here for both.
const demoDirectory = env.NODE_ENV !== 'production' && !env.OIDC_ISSUER;
const directoryPort = env.DEMO_DIRECTORY_PORT || '3001';
if (demoDirectory) {
  env.OIDC_ISSUER = `http://localhost:${directoryPort}`;
  env.OIDC_CLIENT_ID = 'provider-portal-ops';
  env.OIDC_CLIENT_SECRET = randomBytes(24).toString('base64url');
  env.OIDC_ALLOW_HTTP = 'true';
  env.OIDC_REQUIRE_MFA ??= 'true';
}

const children = [];
function launch(name, command, args, options) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${name} | ${line}\n`));
  }
  child.on('exit', (code, signal) => {
    console.log(`${name} | exited (${signal ?? code})`);
    // If one part dies on its own, stop the other too so the operator notices.
    if (!stopping) shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

let stopping = false;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  const deadline = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }, 15_000);
  deadline.unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r))))).then(() =>
    process.exit(code),
  );
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

const cmsInstalled = existsSync(`${root}/cms/node_modules/@strapi/strapi`);
if (cmsInstalled) {
  launch('cms   ', process.execPath, ['scripts/start.mjs'], { cwd: `${root}/cms`, env });
} else {
  console.log(
    '[start] the CMS is not installed (cms/node_modules missing); content pages will say content is unavailable. Run `npm install` to install it.',
  );
}
if (demoDirectory)
  launch('oidc  ', process.execPath, ['server/dist/demo-directory.js'], {
    env: { ...env, DEMO_DIRECTORY_PORT: directoryPort },
  });
launch('portal', process.execPath, [...portalNodeFlags(env), 'server/dist/main.js'], { env });

/** Resolves once `url` answers with a 2xx status (polled; the answer's body is not read). */
async function answers(url) {
  while (!stopping) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

// Where the probes reach each server: its listening address, with a wildcard address reached over loopback.
const local = (host) => (!host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
const portalPort = env.PORT || '3000';
const cmsPort = env.CMS_PORT || '1337';
const places = [
  {
    name: 'Site',
    url: env.PUBLIC_URL || `http://localhost:${portalPort}`,
    ready: answers(`http://${local(env.HOST)}:${portalPort}/readyz`),
  },
];
if (cmsInstalled) {
  const cmsUrl = (env.CMS_PUBLIC_URL || `http://localhost:${cmsPort}`).replace(/\/+$/, '');
  places.push({
    name: 'CMS admin',
    url: `${cmsUrl}/admin`,
    ready: answers(`http://${local(env.CMS_HOST)}:${cmsPort}/_health`),
  });
}
// The demo's mail viewer (MAIL_VIEWER, set above outside production) shows the emails the portal sends.
if (env.MAIL_VIEWER === 'true')
  places.push({ name: 'Mail viewer', url: `${places[0].url.replace(/\/+$/, '')}/dev/mail`, ready: places[0].ready });

// The help-desk console and, in the demo, its directory (sign in there as helpdesk, supervisor or norole).
places.push({ name: 'Help-desk console', url: `${places[0].url.replace(/\/+$/, '')}/ops`, ready: places[0].ready });
if (demoDirectory)
  places.push({
    name: 'Directory (demo)',
    url: env.OIDC_ISSUER,
    ready: answers(`http://127.0.0.1:${directoryPort}/.well-known/openid-configuration`),
  });

if (cmsInstalled) {
  places[0].ready.then(async (portalUp) => {
    const cmsUp = await Promise.race([
      places[1].ready,
      new Promise((resolve) => setTimeout(() => resolve(false), 1_000)),
    ]);
    if (portalUp && !cmsUp && !stopping)
      console.log(
        '[start] the portal is up; waiting for the CMS (its first start builds the admin panel, a minute or two)',
      );
  });
}
Promise.all(places.map((place) => place.ready)).then((up) => {
  if (stopping || !up.every(Boolean)) return;
  const width = Math.max(...places.map((place) => place.name.length));
  console.log(`\n[start] ready (Ctrl-C stops everything):`);
  for (const place of places) console.log(`[start]   ${place.name.padEnd(width)}  ${place.url}`);
});
