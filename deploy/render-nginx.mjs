#!/usr/bin/env node
// Renders deploy/nginx/portal.conf.template for N portal instances (docs/decisions/0033-openapi-metrics-deployment.md).
//
//   node deploy/render-nginx.mjs --upstreams 127.0.0.1:3001,127.0.0.1:3002 --listen 80 \
//     --server-name portal.example.org --web-dist /srv/portal/web/dist --portal-env /etc/portal/portal.env \
//     > /etc/nginx/sites-available/portal.conf
//
//   node deploy/render-nginx.mjs --standalone /tmp/portal-nginx --listen 127.0.0.1:8080 \
//     --upstreams 127.0.0.1:3001,127.0.0.1:3002
//   nginx -p /tmp/portal-nginx -c /tmp/portal-nginx/nginx.conf          # no root needed; `-s stop` to stop
//
// Every option has a PORTAL_NGINX_* environment variable too (PORTAL_NGINX_UPSTREAMS, …), for scripts.
// --portal-env: the portal's settings file; its REQUEST_TIMEOUT_MS and MAX_CONNECTIONS_PER_ADDRESS become nginx's
// per-client limits (unset there: the portal's defaults, as .env.example lists them). --api-rate, --api-burst: the
// /api/ requests per client address (nginx limit_req; default 20r/s, bursts of 100).
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
    'portal-env': { type: 'string', default: process.env.PORTAL_NGINX_PORTAL_ENV },
    'api-rate': { type: 'string', default: process.env.PORTAL_NGINX_API_RATE ?? '20r/s' },
    'api-burst': { type: 'string', default: process.env.PORTAL_NGINX_API_BURST ?? '100' },
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
      .slice(1, 14)
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
if (!/^\d+r\/[sm]$/.test(values['api-rate'])) fail('--api-rate must be an nginx rate such as 20r/s or 600r/m');
if (!/^\d+$/.test(values['api-burst'])) fail('--api-burst must be a whole number');
const webDist = isAbsolute(values['web-dist']) ? values['web-dist'] : resolve(values['web-dist']);

/** KEY=value lines of an env file (comments and blank lines skipped); the last of a name wins, as systemd reads it. */
function envFile(path) {
  const env = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]] = match[2].trim();
  }
  return env;
}

// The portal's own limits, from the same settings (docs/requirements/platform.md#operations): the defaults as the
// repository's .env.example lists them (a test keeps those equal to the server's), then the portal's settings file.
let portalSettings = envFile(join(repoRoot, '.env.example'));
if (values['portal-env']) {
  try {
    portalSettings = {
      ...portalSettings,
      ...Object.fromEntries(Object.entries(envFile(values['portal-env'])).filter(([, v]) => v !== '')),
    };
  } catch (err) {
    fail(`--portal-env: cannot read ${values['portal-env']} (${err.code ?? err.message})`);
  }
}
const requestTimeoutMs = portalSettings.REQUEST_TIMEOUT_MS;
const maxConnections = portalSettings.MAX_CONNECTIONS_PER_ADDRESS;
if (!/^\d+$/.test(requestTimeoutMs ?? '') || Number(requestTimeoutMs) < 1000)
  fail(`REQUEST_TIMEOUT_MS must be a number of milliseconds, at least 1000 (got "${requestTimeoutMs}")`);
if (!/^\d+$/.test(maxConnections ?? ''))
  fail(`MAX_CONNECTIONS_PER_ADDRESS must be a whole number, 0 for no cap (got "${maxConnections}")`);

/**
 * The map from nginx's `$remote_addr` to the client key every per-client limit counts against, as the portal's own
 * (server/src/platform/rate-limit.ts, clientKeyOfAddress): an IPv4 address as it is, an IPv4-mapped IPv6 address as
 * its IPv4 address, any other IPv6 address by its /64 (`2001:db8:0:7::/64`), so a host holding a /64 gets one budget,
 * not 2^64. nginx writes an IPv6 address with one run of zero groups as `::`: one pattern per place and length of
 * that run within the first four groups spells those groups out (zeros included), so every address of a /64 gets
 * the same key whichever of its groups nginx shortened.
 */
function clientKeyMap() {
  const group = '([0-9a-f]{1,4})';
  const lines = [
    // Quoted (a brace would end the map) and without backslashes (nginx keeps some, drops others).
    '    "~^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$" $remote_addr;',
    '    "~^::ffff:([0-9]+[.][0-9]+[.][0-9]+[.][0-9]+)$" $1;',
    // nginx writes an address whose first 96 bits are zero with a dotted tail too (::0.0.41.65): the /64 of zeros.
    '    "~^::[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$" 0:0:0:0::/64;',
    // The first four groups written out (no `::` among them).
    `    "~^${group}:${group}:${group}:${group}:" $1:$2:$3:$4::/64;`,
  ];
  // `::` after `before` groups (0–3) with `after` groups behind it (8 groups in all, the run at least one long).
  for (let before = 0; before < 4; before++)
    for (let after = 0; before + after <= 7; after++) {
      const runEnd = 8 - after; // the first group after the run
      const key = [0, 1, 2, 3].map((i) =>
        i < before ? `$${i + 1}` : i < runEnd ? '0' : `$${before + 1 + i - runEnd}`,
      );
      const pattern = `${Array(before).fill(group).join(':')}::${Array(after).fill(group).join(':')}`;
      // Only the groups the key uses are captured (nginx numbers captures from 1, at most 9).
      lines.push(`    "~^${pattern}$" ${key.join(':')}::/64;`);
    }
  return lines.join('\n');
}

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
  REQUEST_TIMEOUT: `${requestTimeoutMs}ms`,
  LIMIT_CONN:
    Number(maxConnections) > 0
      ? `limit_conn portal_connections_per_address ${Number(maxConnections)};`
      : '# MAX_CONNECTIONS_PER_ADDRESS=0: no cap on requests in progress per client address.',
  CLIENT_KEY_MAP: clientKeyMap(),
  API_RATE: values['api-rate'],
  // nginx refuses burst=0: no burst is no burst= at all.
  API_LIMIT_REQ: `limit_req zone=portal_api_per_address${Number(values['api-burst']) > 0 ? ` burst=${Number(values['api-burst'])}` : ''} nodelay;`,
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
