// Reports the gzip size of the JavaScript the browser downloads to show `/` (from Vite's build manifest):
// - initial: the entry chunk, the home route's chunk and their static imports: what the first render waits for;
// - deferred: what the home page then imports lazily (the markdown renderer for the CMS hero text and notices).
// Prints the ratio of the initial size to the 150 KB stretch goal of docs/requirements/platform.md#web-budget. Run: npm run bench:web-size
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../web/dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const GOAL_KB = 150;

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const homeRoute = Object.keys(manifest).find((k) => /app\/routes\/home\.tsx$/.test(k));
const initial = closure([entry, ...(homeRoute ? [homeRoute] : [])]);

// Lazy imports made by what the home page loads: not the other routes, the dialogs (never shown on `/`) nor the
// inactivity timer (loaded once logged in).
const lazyFromHome = [...initial]
  .flatMap((k) => manifest[k].dynamicImports ?? [])
  .filter((k) => !/src\/app\/routes\/|-dialog\.tsx$|inactivity-timer\.tsx$/.test(k));
const deferred = new Set([...closure(lazyFromHome)].filter((k) => !initial.has(k)));

function measure(label, keys) {
  let raw = 0;
  let gz = 0;
  const rows = [];
  for (const key of keys) {
    const file = manifest[key].file;
    if (!file.endsWith('.js')) continue;
    const bytes = readFileSync(join(dist, file));
    const g = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += g;
    rows.push([file, bytes.length, g]);
  }
  rows.sort((a, b) => b[2] - a[2]);
  console.log(`${label}:`);
  for (const [file, size, g] of rows)
    console.log(`${(g / 1024).toFixed(1).padStart(8)} KB gz ${(size / 1024).toFixed(1).padStart(8)} KB  ${file}`);
  console.log(`  = ${(gz / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw) in ${rows.length} files`);
  return gz;
}

const initialGz = measure('initial JS of / (the first render waits for it)', initial);
const deferredGz = measure('deferred JS of / (loaded after the first render)', deferred);
console.log(`total JS of /: ${((initialGz + deferredGz) / 1024).toFixed(1)} KB gzip`);
console.log(`ratio of the initial JS to the ${GOAL_KB} KB goal: ${(initialGz / 1024 / GOAL_KB).toFixed(2)}`);
