#!/usr/bin/env node
// Renders deploy/nginx/portal.conf.template for N portal instances (docs/decisions/0033-openapi-metrics-deployment.md).
//
//   node deploy/render-nginx.mjs --upstreams 127.0.0.1:3001,127.0.0.1:3002 --listen 80 \
//     --server-name portal.example.org --web-dist /srv/portal/web/dist > /etc/nginx/sites-available/portal.conf
//
//   node deploy/render-nginx.mjs --standalone /tmp/portal-nginx --listen 127.0.0.1:8080 \
//     --upstreams 127.0.0.1:3001,127.0.0.1:3002
//   nginx -p /tmp/portal-nginx -c /tmp/portal-nginx/nginx.conf          # no root needed; `-s stop` to stop
//
// Every option has a PORTAL_NGINX_* environment variable too (PORTAL_NGINX_UPSTREAMS, …), for scripts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(here, '..');

const { values } = parseArgs({
  options: {
    listen: { type: 'string', default: process.env.PORTAL_NGINX_LISTEN ?? '80' },
    'server-name': { type: 'string', default: process.env.PORTAL_NGINX_SERVER_NAME ?? '_' },
    upstreams: { type: 'string', default: process.env.PORTAL_NGINX_UPSTREAMS ?? '127.0.0.1:3001,127.0.0.1:3002' },
    'web-dist': { type: 'string', default: process.env.PORTAL_NGINX_WEB_DIST ?? join(repoRoot, 'web', 'dist') },
    'max-fails': { type: 'string', default: process.env.PORTAL_NGINX_MAX_FAILS ?? '0' },
    'fail-timeout': { type: 'string', default: process.env.PORTAL_NGINX_FAIL_TIMEOUT ?? '10s' },
    standalone: { type: 'string', default: process.env.PORTAL_NGINX_STANDALONE },
    help: { type: 'boolean', default: false },
  },
});

function fail(message) {
  console.error(`render-nginx: ${message}`);
  process.exit(1);
}

if (values.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 11)
      .join('\n'),
  );
  process.exit(0);
}

const upstreams = values.upstreams
  .split(',')
  .map((u) => u.trim())
  .filter(Boolean);
if (!upstreams.length) fail('--upstreams needs at least one host:port');
for (const u of upstreams) if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(u)) fail(`--upstreams: "${u}" is not host:port`);
if (!/^([A-Za-z0-9.\-[\]:]+:)?\d{1,5}$/.test(values.listen)) fail(`--listen: "${values.listen}" is not [host:]port`);
if (!/^\d+$/.test(values['max-fails'])) fail('--max-fails must be a whole number');
if (!/^\d+(ms|s|m)?$/.test(values['fail-timeout'])) fail('--fail-timeout must be an nginx time such as 10s');
if (!/^[A-Za-z0-9.\-_* ]+$/.test(values['server-name'])) fail('--server-name: host names separated by spaces');
const webDist = isAbsolute(values['web-dist']) ? values['web-dist'] : resolve(values['web-dist']);

function render(template, vars) {
  const text = readFileSync(join(here, 'nginx', template), 'utf8').replace(/@([A-Z_]+)@/g, (match, name) => {
    if (!(name in vars)) fail(`${template}: no value for ${match}`);
    return vars[name];
  });
  return text;
}

const portalConf = render('portal.conf.template', {
  LISTEN: values.listen,
  SERVER_NAME: values['server-name'],
  WEB_DIST: webDist,
  MAX_FAILS: values['max-fails'],
  FAIL_TIMEOUT: values['fail-timeout'],
  UPSTREAM_SERVERS: upstreams
    .map((u) => `    server ${u} max_fails=${values['max-fails']} fail_timeout=${values['fail-timeout']};`)
    .join('\n'),
});

if (values.standalone) {
  const dir = resolve(values.standalone);
  for (const sub of ['', 'client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'portal.conf'), portalConf);
  writeFileSync(
    join(dir, 'nginx.conf'),
    render('nginx-standalone.conf.template', {
      RUNTIME_DIR: dir,
      // Started by root, nginx would run its workers as `nobody`, which cannot read a private build folder or write
      // these temp folders: a standalone run keeps them as the starting user (a trial or a gate, never a server).
      USER_LINE: process.getuid?.() === 0 ? 'user root;\n' : '',
    }),
  );
  console.log(join(dir, 'nginx.conf'));
} else {
  process.stdout.write(portalConf);
}
