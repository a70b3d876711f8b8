// Reports the gzip size of the JavaScript the browser downloads to show `/`: the entry chunk, its static
// imports, and the home route's lazily imported chunk with its static imports (from Vite's build manifest).
// Prints the ratio to the 150 KB stretch goal of DESIGN §6. Run: npm run bench:web-size
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

let raw = 0;
let gz = 0;
const rows = [];
for (const key of initial) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  const bytes = readFileSync(join(dist, file));
  const g = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += g;
  rows.push([file, bytes.length, g]);
}
rows.sort((a, b) => b[2] - a[2]);
for (const [file, size, g] of rows) console.log(`${(g / 1024).toFixed(1).padStart(8)} KB gz ${(size / 1024).toFixed(1).padStart(8)} KB  ${file}`);
console.log(`initial JS of /: ${(gz / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw) in ${rows.length} files`);
console.log(`ratio to the ${GOAL_KB} KB goal: ${(gz / 1024 / GOAL_KB).toFixed(2)}`);
