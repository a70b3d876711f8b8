// Reports the gzip size of the JavaScript the browser downloads to show each page (from Vite's build manifest), per
// route module (web/src/app/routes/*.tsx; a new route appears here by itself):
// - initial: the entry chunk, the route's chunk and their static imports: what hydrating the page waits for;
// - deferred: what the page then imports lazily (the markdown renderer for CMS text, a form's password checklist…),
//   not the other routes, the dialogs nor the inactivity timer (loaded once logged in).
// Details (every file) for `/` and `/login`, then one line per route, then the ratio of `/` and `/login` to the
// 150 KB goal of docs/requirements/platform.md#web-budget. Run: npm run bench:web-size
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../web/dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const GOAL_KB = 150;
// The page each route module renders (web/src/app/router.tsx); a module not listed is shown by its name.
const ROUTE_PATHS = {
  home: '/',
  topic: '/topics/:id',
  login: '/login',
  register: '/register',
  'verify-email': '/verify-email',
  'confirm-email': '/confirm-email',
  'login-help': '/login-help/*, /reset-password, /reactivate, /find-admin',
  account: '/account',
  'dde-access': '/dde-access',
  'not-found': 'not-found page',
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
  const page = ROUTE_PATHS[name] ?? name;
  const detailed = DETAILED.has(name);
  const i = measure(initial, detailed ? `initial JS of ${page} (hydrating the page waits for it)` : undefined);
  const d = measure(deferred, detailed ? `deferred JS of ${page} (loaded when used)` : undefined);
  results.push({ name, page, initial: i, deferred: d });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('\n| page | initial JS (gzip) | files | deferred JS (gzip) |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.page} | ${kb(r.initial.gz)} | ${r.initial.files} | ${kb(r.deferred.gz)} |`);
for (const r of results.filter((x) => DETAILED.has(x.name)))
  console.log(
    `ratio of the initial JS of ${r.page} to the ${GOAL_KB} KB goal: ${(r.initial.gz / 1024 / GOAL_KB).toFixed(2)}`,
  );
