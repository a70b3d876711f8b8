#!/usr/bin/env node
// Checks a deployment from outside, through the load balancer: readiness, a page, and a demo login with password
// and TOTP (staging only: the demo accounts exist with SEED_DEMO_DATA=true). Exit code 0 when all pass.
//
//   node deploy/smoke.mjs http://127.0.0.1:8080 [--session-only COOKIE]
//
// Prints the session cookie it got, so a second run can check that the session still works after an instance
// is stopped (`--session-only portal_session=…`): sessions live in PostgreSQL, so any instance serves them.
import { createHmac } from 'node:crypto';
import { parseArgs } from 'node:util';

/** The current 6-digit TOTP code (RFC 6238: SHA-1, 30 s) of a base32 secret; Node's crypto only, no package. */
function totp(base32, now = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of base32.replace(/[\s=]/g, '').toUpperCase())
    bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1] & 0xf;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    'session-only': { type: 'string' },
    username: { type: 'string', default: 'demo.admin.j5' },
    password: { type: 'string', default: 'Harbor lantern quartz meadow' },
    'totp-secret': { type: 'string', default: 'DEMOPORTALJ5ADMINTOTPSECRET23456' },
  },
});
const base = (positionals[0] ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const portal = { 'x-portal-request': '1', origin: base, 'content-type': 'application/json' };
let cookie = values['session-only'];
let failed = false;

function check(label, ok, detail = '') {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${label}${detail ? ` (${detail})` : ''}`);
  if (!ok) failed = true;
}

async function call(method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? portal : { 'x-portal-request': '1' }), ...(cookie ? { cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
  });
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?portal_session=/.test(c));
  if (set) cookie = set.split(';', 1)[0];
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, requestId: res.headers.get('x-request-id'), text };
}

const ready = await call('GET', '/readyz');
check('GET /readyz', ready.status === 200 && ready.json?.status === 'ready', `${ready.status}`);
const page = await call('GET', '/');
check('GET / (page)', page.status === 200 && page.text.includes('<html'), `${page.status}`);
check('X-Request-Id set by the proxy', /^[0-9a-f]{32}$/.test(page.requestId ?? ''), page.requestId ?? 'none');

if (!values['session-only']) {
  const login = await call('POST', '/api/auth/login', { username: values.username, password: values.password });
  check('POST /api/auth/login', login.json?.data?.next === 'mfa', `${login.status} ${JSON.stringify(login.json)}`);
  const code = totp(values['totp-secret']);
  const mfa = await call('POST', '/api/auth/mfa', { code });
  check('POST /api/auth/mfa (TOTP)', mfa.json?.data?.loggedIn === true, `${mfa.status} ${JSON.stringify(mfa.json)}`);
}
const session = await call('GET', '/api/session');
check(
  'GET /api/session is logged in',
  session.json?.data?.loggedIn === true && session.json?.data?.username === values.username,
  `${session.status}`,
);
if (cookie) console.log(`session cookie: ${cookie}`);
process.exit(failed ? 1 : 0);
