// Regenerates packages/contracts/src/password-blocklist.json from @zxcvbn-ts/language-common (MIT), whose
// `passwords-common` list is ranked by how often each password appears in breach corpora. We keep the most common
// entries of 6+ characters: shorter ones are refused by the length rule anyway. Run: node scripts/build-password-blocklist.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { dictionary } = require('@zxcvbn-ts/language-common');
const LIMIT = 5000;
const entries = [];
const seen = new Set();
for (const password of dictionary['passwords-common']) {
  const normal = String(password).toLowerCase();
  if (normal.length < 6 || seen.has(normal)) continue;
  seen.add(normal);
  entries.push(normal);
  if (entries.length === LIMIT) break;
}
const target = new URL('../packages/contracts/src/password-blocklist.json', import.meta.url);
writeFileSync(target, JSON.stringify(entries) + '\n');
console.log(`wrote ${entries.length} entries to ${target.pathname}`);
