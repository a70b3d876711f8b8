// Fails (exit 1) when a decision record, bench/RESULTS.md or the README is over its length limit, or when a file
// cites something a clone of this repository does not have: the old shared requirement files (section-sign citations of the spec or DESIGN, the shared folder), or a `docs/…` path or
// `#anchor` that does not exist.
// Markdown files' relative links are checked the same way. Run by `npm run lint`; `node scripts/check-doc-citations.mjs [root]`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = resolve(process.argv[2] ?? join(dirname(self), '..'));
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'data',
  'coverage',
  'test-results',
  '.tmp',
  '.strapi',
  '.cache',
]);
const EXTENSIONS = /\.(ts|tsx|js|jsx|mjs|cjs|md|html|ya?ml)$/;
const FORBIDDEN = [
  /\b(spec|DESIGN)\s*§/i,
  /\.\.\/shared\b/,
  /\bDESIGN\.md\b/,
  /\bproduct-spec\.md\b/,
  /\bresearch\/[\w-]+\.md\b/,
];
const DOCS_PATH = /(?<![\w./-])docs\/[\w./-]*(#[\w-]+)?/g;
const MD_LINK = /\]\(([^)\s]+)\)/g;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(path);
    } else if (EXTENSIONS.test(entry.name) && path !== self) yield path;
  }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
const anchorCache = new Map();
function anchorsOf(mdFile) {
  if (!anchorCache.has(mdFile)) {
    const seen = new Map();
    const anchors = new Set();
    let fenced = false;
    for (const line of readFileSync(mdFile, 'utf8').split('\n')) {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (!heading) continue;
      const text = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
      const slug = text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n ? `${slug}-${n}` : slug);
    }
    anchorCache.set(mdFile, anchors);
  }
  return anchorCache.get(mdFile);
}

/** A target exists as a file or folder, or (like `docs/decisions/0010`) as the unique prefix of `0010-….md`. */
function resolveTarget(path) {
  if (existsSync(path)) return statSync(path).isDirectory() ? undefined : path;
  const dir = dirname(path);
  const matches = existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith(`${basename(path)}-`)) : [];
  return matches.length === 1 ? join(dir, matches[0]) : null;
}

function problemWith(target, fromDir, currentFile) {
  const [pathPart, anchor] = target.split('#');
  const file = pathPart ? resolveTarget(resolve(fromDir, pathPart)) : currentFile;
  if (file === null) return 'no such file';
  if (anchor && (!file || !file.endsWith('.md') || !anchorsOf(file).has(anchor.toLowerCase())))
    return 'no such heading';
  return undefined;
}

// Every file and folder of the repository (relative, folders ending in `/`), for the source paths cited in Markdown.
const tree = [];
(function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name) || entry.name === 'dist-ssr') continue;
    const path = relative(root, join(dir, entry.name)).split('\\').join('/');
    tree.push(entry.isDirectory() ? `${path}/` : path);
    if (entry.isDirectory()) walk(join(dir, entry.name));
  }
})(root);
const topFolders = new Set(tree.filter((path) => /^[^/]+\/$/.test(path)).map((path) => path.slice(0, -1)));
const SOURCE_FILE = /\.(tsx?|[mc]?js|jsx|json|md|css|csv|835|sql|ya?ml|html|template|service|example|conf)$/;

/**
 * A code span names a source path when it is slashed words only (no URL, route, placeholder or glob) with a file
 * extension, or starts with a top folder of the repository, or is a folder under another (`identity/sessions/`).
 * Package names (`zod/mini`), media types and lint rules have none of these; runtime folders (`data/`, `done/`) and
 * build outputs are left out. It exists when the path, or a path ending in it, is in the tree.
 */
function missingSourcePath(code) {
  if (!/^[\w.-]+(\/[\w.@-]+)+\/?$/.test(code) || /\bYYYY\b/.test(code)) return false;
  const segments = code.split('/').filter(Boolean);
  if (segments.some((segment) => SKIP_DIRS.has(segment) || segment === 'dist-ssr')) return false;
  const named = SOURCE_FILE.test(code) || topFolders.has(segments[0]) || code.endsWith('/');
  if (!named) return false;
  const path = segments.join('/');
  return !tree.some((entry) => {
    const bare = entry.endsWith('/') ? entry.slice(0, -1) : entry;
    return bare === path || bare.endsWith(`/${path}`);
  });
}

const problems = [];
for (const file of files(root)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  let fenced = false;
  lines.forEach((line, i) => {
    const where = `${relative(root, file)}:${i + 1}`;
    for (const pattern of FORBIDDEN)
      if (pattern.test(line)) problems.push(`${where}: cites a file outside the repository (${pattern.exec(line)[0]})`);
    for (const [raw] of line.matchAll(DOCS_PATH)) {
      const target = raw.replace(/[.]+$/, '');
      const problem = problemWith(target, root, file);
      if (problem) problems.push(`${where}: ${target}: ${problem}`);
    }
    if (!file.endsWith('.md')) return;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && !relative(root, file).split('\\').join('/').startsWith('bench/results/'))
      for (const [, code] of line.matchAll(/`([^`\s]+)`/g))
        if (missingSourcePath(code)) problems.push(`${where}: ${code}: no such file`);
    for (const [, target] of line.matchAll(MD_LINK)) {
      if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith('/')) continue;
      const problem = problemWith(decodeURI(target), dirname(file), file);
      if (problem) problems.push(`${where}: ${target}: ${problem}`);
    }
  });
}

// The Docs rule: a decision record states one decision on about two screens, RESULTS.md is an index, and the
// README stays a quick start (measurements go to bench/results/, reference text to docs/).
const LENGTH_LIMITS = [
  [/^docs\/decisions\/\d{4}-[\w-]+\.md$/, 100],
  [/^bench\/RESULTS\.md$/, 150],
  [/^README\.md$/, 250],
];
for (const file of files(root)) {
  const path = relative(root, file).split('\\').join('/');
  const limit = LENGTH_LIMITS.find(([pattern]) => pattern.test(path))?.[1];
  const count = limit && readFileSync(file, 'utf8').trimEnd().split('\n').length;
  if (limit && count > limit)
    problems.push(`${path}: ${count} lines, over the ${limit}-line limit (move measurements to bench/results/)`);
}

if (problems.length) {
  console.error(
    `Doc citations: ${problems.length} problem(s); cite docs/requirements/ and existing headings:\n${problems.join('\n')}`,
  );
  process.exit(1);
}
