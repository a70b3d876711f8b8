// `npm start`: builds the web app and the server, then runs the CMS and the portal server together with
// their logs interleaved and prefixed; Ctrl-C (or SIGTERM) stops both. The portal does not wait for the CMS:
// content answers 502 Content_Unavailable until the CMS is up, and everything else works meanwhile.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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

const children = [];
function launch(name, command, args, options, onLine = () => {}) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      process.stdout.write(`${name} | ${line}\n`);
      onLine(line);
    });
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
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r))))).then(() => process.exit(code));
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

if (existsSync(`${root}/cms/node_modules/@strapi/strapi`)) {
  launch('cms   ', process.execPath, ['scripts/start.mjs'], { cwd: `${root}/cms`, env: process.env });
} else {
  console.log('[start] the CMS is not installed (cms/node_modules missing); content pages will say content is unavailable. Run `npm install` to install it.');
}
// The demo shows the emails the portal sends (account locked, password changed …) at /dev/mail. Never in production:
// the server refuses MAIL_VIEWER=true there; an explicit MAIL_VIEWER setting wins.
const portalEnv = { ...process.env };
if (portalEnv.NODE_ENV !== 'production' && !portalEnv.MAIL_VIEWER) portalEnv.MAIL_VIEWER = 'true';
const publicUrl = (portalEnv.PUBLIC_URL || `http://localhost:${portalEnv.PORT || 3000}`).replace(/\/+$/, '');
let announced = false;
// Once the portal listens, the last lines say where to go.
launch('portal', process.execPath, ['server/dist/main.js'], { env: portalEnv }, (line) => {
  if (announced || !line.includes('Server listening')) return;
  announced = true;
  console.log(`[start] the portal is ready: ${publicUrl}`);
  if (portalEnv.MAIL_VIEWER === 'true') console.log(`[start] emails the portal sends (mail viewer, demo only): ${publicUrl}/dev/mail`);
});
