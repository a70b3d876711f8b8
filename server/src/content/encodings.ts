import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';

/** Content codings a cached answer is kept in besides identity, best first (docs/decisions/0019). */
export type Encoding = 'br' | 'gzip';

/** One compressed form of a cached body, with its own strong ETag (a different representation, RFC 9110 §8.8.3). */
export interface EncodedForm {
  body: Buffer;
  etag: string;
}

export type EncodedForms = Partial<Record<Encoding, EncodedForm>>;

/** Below this many bytes an answer stays identity: the headers would outweigh the saving. Same as @fastify/compress. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Quality of the compressed forms stored in the cache. They are computed once per stored answer (a miss already
 * waits for the CMS), so higher than the per-request quality below, but not brotli's 11, which takes
 * hundreds of milliseconds on a large answer.
 */
const BROTLI_QUALITY = 9;
const GZIP_LEVEL = 9;

/**
 * Quality of an answer compressed as it is sent (@fastify/compress in app.ts, pages rendered per session here):
 * per request, so fast. On /admin's 112 KB of HTML brotli 5 takes 0.8 ms for 11.7 KB, gzip 6 0.7 ms for 13.1 KB,
 * brotli 4 0.7 ms for 13.1 KB, brotli 9 12 ms for 11.4 KB (bench/results/2026-11-29-tbt-cuts.md).
 */
export const PER_REQUEST_BROTLI_QUALITY = 5;
export const PER_REQUEST_GZIP_LEVEL = 6;

/** Text types worth compressing: HTML, JSON, JavaScript, CSS, SVG, XML, plain text. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript)\b|image\/svg\+xml\b)/i;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

function run(
  compress: typeof zlib.gzip | typeof zlib.brotliCompress,
  body: Buffer,
  options: zlib.ZlibOptions | zlib.BrotliOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    (compress as (buf: Buffer, options: object, callback: (err: Error | null, result: Buffer) => void) => void)(
      body,
      options,
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** `"abc"` → `"abc-br"`: a strong tag per coding, recognisable as the same content. */
function encodedEtag(etag: string, encoding: Encoding): string {
  return `${etag.slice(0, -1)}-${encoding}"`;
}

/**
 * The brotli and gzip forms of a body about to be cached, compressed asynchronously in zlib's thread pool (never on
 * the event loop, never on a hit). Small or binary bodies get none; a form that saves nothing is left out.
 */
export async function compressAnswer(body: Buffer, contentType: string, etag: string): Promise<EncodedForms> {
  if (body.length < COMPRESS_THRESHOLD_BYTES || !isCompressible(contentType)) return {};
  // zlib is called through its module object (not a captured function) so tests can spy on it.
  const [br, gzip] = await Promise.all([
    run(zlib.brotliCompress, body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    run(zlib.gzip, body, { level: GZIP_LEVEL }),
  ]);
  const forms: EncodedForms = {};
  if (br.length < body.length) forms.br = { body: br, etag: encodedEtag(etag, 'br') };
  if (gzip.length < body.length) forms.gzip = { body: gzip, etag: encodedEtag(etag, 'gzip') };
  return forms;
}

/**
 * A body rendered for one request (never stored) in the coding its Accept-Encoding prefers, compressed once at the
 * per-request quality in zlib's thread pool: the answers the not-found handler draws per session, which
 * @fastify/compress does not hook (docs/decisions/0090). `varies` says whether the answer depends on Accept-Encoding
 * (a compressible body above the threshold), so it goes with `Vary: Accept-Encoding` even when sent as it is.
 */
export async function compressForRequest(
  body: Buffer,
  contentType: string,
  acceptEncoding: string | undefined,
): Promise<{ body: Buffer; encoding: Encoding | undefined; varies: boolean }> {
  if (body.length < COMPRESS_THRESHOLD_BYTES || !isCompressible(contentType))
    return { body, encoding: undefined, varies: false };
  const encoding = preferredEncoding(acceptEncoding);
  if (!encoding) return { body, encoding, varies: true };
  const compressed =
    encoding === 'br'
      ? await run(zlib.brotliCompress, body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: PER_REQUEST_BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : await run(zlib.gzip, body, { level: PER_REQUEST_GZIP_LEVEL });
  return { body: compressed, encoding, varies: true };
}

// Browsers send a handful of distinct Accept-Encoding values; the negotiation of each is remembered.
const negotiator = new Negotiator<Encoding>({
  supportedValues: ['br', 'gzip'],
  cache: new LRUCache<string, string>({ max: 200 }),
});

/** The coding to answer with for this Accept-Encoding header: br when accepted, else gzip, else none (identity). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  return acceptEncoding ? (negotiator.negotiate(acceptEncoding) ?? undefined) : undefined;
}

/** What to send for one request: the stored form matching its Accept-Encoding, or the identity body. */
export function pickForm(
  answer: { body: Buffer; etag: string; encoded: EncodedForms },
  acceptEncoding: string | undefined,
): { body: Buffer; etag: string; encoding: Encoding | undefined } {
  const encoding = preferredEncoding(acceptEncoding);
  const form = encoding && answer.encoded[encoding];
  return form
    ? { body: form.body, etag: form.etag, encoding }
    : { body: answer.body, etag: answer.etag, encoding: undefined };
}
