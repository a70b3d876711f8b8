// Reports the gzip size of the JavaScript the browser downloads to show each page (from Vite's build manifest), per
// route module (web/src/app/routes/*.tsx; a new route appears here by itself):
// - initial: the entry chunk, the route's chunk and their static imports: what hydrating the page waits for;
// - deferred: what the page then imports lazily (the markdown renderer for CMS text, a form's password checklist…),
//   not the other routes, the dialogs nor the inactivity timer (loaded once logged in).
// Details (every file) for `/` and `/login`, then one line per route with its limit, then the ratio of `/` and `/login` to the
// 150 KB goal of docs/requirements/platform.md#web-budget, then what `/login` loads until its form is usable, then
// what the entry chunk is made of (per package, from
// its source map: each package's bytes gzipped on their own, so the parts add up to a little more than the chunk),
// and last the verdict: exit 1 when a route's initial JS is over its limit (ROUTES).
// Run: npm run bench:web-size (WEB_DIST=<folder> measures another build of web/)
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = process.env.WEB_DIST ?? new URL('../web/dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const GOAL_KB = 150;
// The page each route module renders (web/src/app/router.tsx) and the most initial JS it may have (issue 39): 150 KB
// gzip for the public, login and login-help pages, 170 KB for the logged-in pages and /register/user. A route module
// not listed here fails the run: a new route states its limit.
const ROUTES = {
  home: { page: '/', limitKb: 150 },
  topic: { page: '/topics/:id', limitKb: 150 },
  login: { page: '/login', limitKb: 150 },
  register: { page: '/register', limitKb: 150 },
  'verify-email': { page: '/verify-email', limitKb: 150 },
  'confirm-email': { page: '/confirm-email', limitKb: 150 },
  'login-help': { page: '/login-help/*, /reset-password, /reactivate, /find-admin', limitKb: 150 },
  'logged-out': { page: '/logged-out', limitKb: 150 },
  'not-found': { page: 'not-found page', limitKb: 150 },
  invitation: { page: '/invitation', limitKb: 170 },
  'register-user': { page: '/register/user', limitKb: 170 },
  'portal-home': { page: '/portal', limitKb: 170 },
  account: { page: '/account', limitKb: 170 },
  'dde-access': { page: '/dde-access', limitKb: 170 },
  admin: { page: '/admin', limitKb: 170 },
  recertify: { page: '/admin/recertify', limitKb: 170 },
  // The help-desk console (staff signed in through the directory): the logged-in pages' limit.
  ops: { page: '/ops', limitKb: 170 },
};
const DETAILED = new Set(['home', 'login']);

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const gzCache = new Map();
function sizes(key) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) return undefined;
  if (!gzCache.has(file)) {
    const bytes = readFileSync(join(dist, file));
    gzCache.set(file, { file, raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length });
  }
  return gzCache.get(file);
}

function measure(keys, label) {
  const rows = [...keys].map(sizes).filter(Boolean);
  const gz = rows.reduce((sum, r) => sum + r.gz, 0);
  const raw = rows.reduce((sum, r) => sum + r.raw, 0);
  if (label) {
    console.log(`${label}:`);
    for (const r of rows.sort((a, b) => b.gz - a.gz))
      console.log(
        `${(r.gz / 1024).toFixed(1).padStart(8)} KB gz ${(r.raw / 1024).toFixed(1).padStart(8)} KB  ${r.file}`,
      );
    console.log(`  = ${(gz / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw) in ${rows.length} files`);
  }
  return { gz, raw, files: rows.length };
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const routeModules = Object.keys(manifest)
  .map((k) => [k, /app\/routes\/([\w-]+)\.tsx$/.exec(k)?.[1]])
  .filter(([, name]) => name)
  .sort(([, a], [, b]) => (a === 'home' ? -1 : b === 'home' ? 1 : a.localeCompare(b)));

const results = [];
for (const [key, name] of routeModules) {
  const initial = closure([entry, key]);
  const lazy = [...initial]
    .flatMap((k) => manifest[k].dynamicImports ?? [])
    .filter((k) => !/src\/app\/routes\/|-dialog\.tsx$|inactivity-timer\.tsx$|\/api\/[\w-]+\.ts$/.test(k));
  const deferred = new Set([...closure(lazy)].filter((k) => !initial.has(k)));
  const page = ROUTES[name]?.page ?? name;
  const detailed = DETAILED.has(name);
  const i = measure(initial, detailed ? `initial JS of ${page} (hydrating the page waits for it)` : undefined);
  const d = measure(deferred, detailed ? `deferred JS of ${page} (loaded when used)` : undefined);
  results.push({ name, page, initial: i, deferred: d, limitKb: ROUTES[name]?.limitKb });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('\n| page | initial JS (gzip) | limit | files | deferred JS (gzip) |');
console.log('|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.page} | ${kb(r.initial.gz)} | ${r.limitKb ? `${r.limitKb} KB` : 'none stated'} | ${r.initial.files} | ${kb(r.deferred.gz)} |`,
  );
for (const r of results.filter((x) => DETAILED.has(x.name)))
  console.log(
    `ratio of the initial JS of ${r.page} to the ${GOAL_KB} KB goal: ${(r.initial.gz / 1024 / GOAL_KB).toFixed(2)}`,
  );

// `/login` hydrates without waiting for its username and password form, whose code starts loading at once beside
// hydration (docs/decisions/0034-server-rendered-portal-pages.md): the form is usable when both are there.
const loginRoute = routeModules.find(([, name]) => name === 'login')?.[0];
const loginForm = Object.keys(manifest).find((k) => /features\/auth\/components\/password-step\.tsx$/.test(k));
if (loginRoute && loginForm)
  console.log(
    `JS of /login until its form is usable (initial + the form's chunks): ${kb(measure(closure([entry, loginRoute, loginForm])).gz)}`,
  );

// What the entry chunk is made of: the source map says which source each generated byte comes from.
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function* segments(mappings) {
  // Yields [generated line, generated column, source index] for each segment (VLQ, source map v3).
  let source = 0;
  const lines = mappings.split(';');
  for (let line = 0; line < lines.length; line++) {
    let column = 0;
    for (const segment of lines[line].split(',')) {
      if (!segment) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0];
      if (values.length > 1) source += values[1];
      yield [line, column, values.length > 1 ? source : -1];
    }
  }
}

function packageOf(source) {
  const path = source.replaceAll('\\', '/');
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return path.includes('/packages/contracts/') ? '@portal/contracts' : 'web/src (the app)';
  const [scope, name] = path.slice(at + 'node_modules/'.length).split('/');
  return scope.startsWith('@') ? `${scope}/${name}` : scope;
}

const entryFile = manifest[entry].file;
const code = readFileSync(join(dist, entryFile), 'utf8');
const map = JSON.parse(readFileSync(join(dist, `${entryFile}.map`), 'utf8'));
const lineStarts = [0];
for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
const starts = [...segments(map.mappings)].map(([line, column, source]) => [lineStarts[line] + column, source]);
const parts = new Map();
starts.forEach(([start, source], i) => {
  const name = source < 0 ? '(no source)' : packageOf(map.sources[source]);
  const text = code.slice(start, starts[i + 1]?.[0] ?? code.length);
  parts.set(name, (parts.get(name) ?? '') + text);
});
console.log(`\nthe entry chunk ${entryFile} by package (gzip of each package's part on its own):`);
for (const [name, gz] of [...parts]
  .map(([name, text]) => [name, gzipSync(text, { level: 9 }).length])
  .sort((a, b) => b[1] - a[1]))
  console.log(`${(gz / 1024).toFixed(1).padStart(8)} KB  ${name}`);

// The verdict, last: each route's initial JS against its limit.
const over = results.filter((r) => !r.limitKb || r.initial.gz / 1024 > r.limitKb);
for (const r of over)
  console.log(
    r.limitKb
      ? `FAIL ${r.page}: initial JS ${kb(r.initial.gz)} over its ${r.limitKb} KB limit`
      : `FAIL ${r.page}: no limit stated in bench/web-size.mjs ROUTES`,
  );
if (over.length) process.exitCode = 1;
else console.log(`PASS every route's initial JS within its limit (${results.length} route modules)`);
