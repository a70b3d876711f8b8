// Writes `<file>.br` and `<file>.gz` beside every text file of a build folder (the web build runs it on web/dist),
// at maximum quality since it happens once per build; the server sends them with @fastify/static's `preCompressed`
// (docs/decisions/0019-compression-and-cross-instance-invalidation.md). A form that would not be smaller is not
// written. Run: node scripts/precompress.mjs <folder>
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The text types the portal serves statically. */
export const PRECOMPRESSED_EXTENSIONS = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;

/** Compresses every eligible file under `dir`; answers the files written, relative to `dir`. */
export async function precompress(dir) {
  const written = [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && PRECOMPRESSED_EXTENSIONS.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      for (const [suffix, data] of [
        ['.br', br],
        ['.gz', gz],
      ]) {
        if (data.length >= body.length) continue;
        await writeFile(file + suffix, data);
        written.push(file.slice(dir.length + 1) + suffix);
      }
    }),
  );
  return written.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? 'dist');
  const started = Date.now();
  const written = await precompress(dir);
  console.log(`precompress: ${written.length} .br/.gz files in ${dir} (${Date.now() - started} ms)`);
}
