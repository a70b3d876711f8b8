import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { compressAnswer, pickForm } from '../src/content/encodings';
import { buildTestApp, testConfig } from './helpers';
import { json, startFakeUpstream } from './support/fake-upstream';

/**
 * What a browser asking with `Accept-Encoding: br, gzip` gets (the `curl --compressed -sI` check of issue 11):
 * every text type brotli-compressed, gzip when only gzip is accepted, identity when nothing is. Static files are
 * the ones the build precompressed (scripts/precompress.mjs runs here on a small build folder); content comes from
 * the cache in the form stored with the entry, so a hit never compresses again.
 */

const precompressScript = fileURLToPath(new URL('../../scripts/precompress.mjs', import.meta.url));
// Text that compresses like real files do (repetitive markup), each above the 1 KB threshold.
const filler = (line: string) => Array.from({ length: 80 }, (_, i) => line.replace('#', String(i))).join('\n');
const files: Record<string, { body: string; type: RegExp }> = {
  '/': {
    body: `<!doctype html><html lang="en"><head><title>Portal</title></head><body>${filler('<p class="line">paragraph #</p>')}</body></html>`,
    type: /^text\/html/,
  },
  '/assets/index-abc123.js': {
    body: filler('export const value# = "value number #";'),
    type: /^(?:text|application)\/javascript/,
  },
  '/assets/index-abc123.css': { body: filler('.rule-# { margin: #px; padding: 0 #px; }'), type: /^text\/css/ },
  '/favicon.svg': {
    body: `<svg xmlns="http://www.w3.org/2000/svg">${filler('<rect x="#" y="#" width="1" height="1"/>')}</svg>`,
    type: /^image\/svg\+xml/,
  },
};
const topics = {
  data: Array.from({ length: 40 }, (_, i) => ({
    id: i,
    attributes: { title: `Topic ${i}`, slug: `topic-${i}`, summary: 'Medicare Part A and Part B provider topic' },
  })),
  meta: {},
};

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

// Every way this process could compress: the cache's async calls and @fastify/compress's stream and sync paths.
// Installed before the app is built, because @fastify/compress takes its sync functions when registered.
const compressors = [
  'brotliCompress',
  'gzip',
  'createBrotliCompress',
  'createGzip',
  'brotliCompressSync',
  'gzipSync',
] as const;
const spies = {} as Record<(typeof compressors)[number], MockInstance>;
const compressCalls = () => Object.values(spies).reduce((sum, spy) => sum + spy.mock.calls.length, 0);

describe('compressed answers', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    for (const name of compressors) spies[name] = vi.spyOn(zlib, name);
    upstream = await startFakeUpstream((_req, res) => json(res, 200, topics));
    const config = testConfig({ CMS_TOKEN: 'fake-token', CMS_URL: upstream.url, CONTENT_CACHE_TTL_MS: '600000' });
    const dist = config.webDistDir;
    mkdirSync(join(dist, 'assets'), { recursive: true });
    for (const [path, { body }] of Object.entries(files))
      writeFileSync(join(dist, path === '/' ? 'index.html' : path), body);
    execFileSync(process.execPath, [precompressScript, dist]);
    ctx = await buildTestApp({
      config,
      extraRoutes: (app) =>
        app.get('/api/test-dynamic', () => ({
          items: Array.from({ length: 100 }, (_, i) => ({ i, label: `item ${i}` })),
        })),
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await ctx?.app.close();
    await upstream?.close();
  });

  it('the build script writes .br and .gz beside each text file', () => {
    const dist = ctx.config.webDistDir;
    expect(readdirSync(dist).sort()).toEqual([
      'assets',
      'favicon.svg',
      'favicon.svg.br',
      'favicon.svg.gz',
      'index.html',
      'index.html.br',
      'index.html.gz',
    ]);
    expect(readdirSync(join(dist, 'assets')).sort()).toEqual([
      'index-abc123.css',
      'index-abc123.css.br',
      'index-abc123.css.gz',
      'index-abc123.js',
      'index-abc123.js.br',
      'index-abc123.js.gz',
    ]);
  });

  const cases: { label: string; path: string; body: string; type: RegExp; file?: string }[] = [
    ...Object.entries(files).map(([path, { body, type }]) => ({
      label: path,
      path,
      body,
      type,
      file: path === '/' ? '/index.html' : path,
    })),
    {
      label: '/api/content (JSON from the cache)',
      path: '/api/content/topics',
      body: JSON.stringify(topics),
      type: /^application\/json/,
    },
    {
      label: 'a dynamic JSON answer',
      path: '/api/test-dynamic',
      body: JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ i, label: `item ${i}` })) }),
      type: /^application\/json/,
    },
  ];

  it.each(cases)(
    '$label: brotli when br is accepted, gzip when only gzip is, identity when neither',
    async ({ path, body, type, file }) => {
      for (const [accept, expected] of [
        ['br, gzip', 'br'],
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        [undefined, undefined],
        ['identity', undefined],
      ] as const) {
        const res = await ctx.app.inject({ url: path, headers: accept ? { 'accept-encoding': accept } : {} });
        expect(res.statusCode, `${path} with ${accept}`).toBe(200);
        expect(res.headers['content-type']).toMatch(type);
        expect(res.headers['content-encoding'], `${path} with ${accept}`).toBe(expected);
        if (expected) expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
        expect(decode(res.rawPayload, expected)).toBe(body);
        if (expected) expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(body));
        // A static file goes out as the file the build wrote, not compressed again per request.
        if (expected && file)
          expect(
            res.rawPayload.equals(
              readFileSync(join(ctx.config.webDistDir, `${file}.${expected === 'br' ? 'br' : 'gz'}`)),
            ),
          ).toBe(true);
      }
    },
  );

  it('cached content is compressed once when stored: hits in any encoding, and 304s, never call the compressor again', async () => {
    ctx.app.contentCache.content.clear();
    upstream.requests.length = 0;
    for (const spy of Object.values(spies)) spy.mockClear();
    const first = await ctx.app.inject({ url: '/api/content/topics', headers: { 'accept-encoding': 'br, gzip' } });
    expect(first.headers['content-encoding']).toBe('br');
    // The miss stored one brotli and one gzip form, asynchronously.
    expect(spies.brotliCompress.mock.calls.length).toBe(1);
    expect(spies.gzip.mock.calls.length).toBe(1);
    expect(compressCalls()).toBe(2);

    for (const spy of Object.values(spies)) spy.mockClear();
    const br = await ctx.app.inject({ url: '/api/content/topics', headers: { 'accept-encoding': 'br, gzip' } });
    const gzip = await ctx.app.inject({ url: '/api/content/topics', headers: { 'accept-encoding': 'gzip' } });
    const identity = await ctx.app.inject({ url: '/api/content/topics' });
    expect([
      br.headers['content-encoding'],
      gzip.headers['content-encoding'],
      identity.headers['content-encoding'],
    ]).toEqual(['br', 'gzip', undefined]);
    expect(br.rawPayload.equals(first.rawPayload)).toBe(true);
    // Each form has its own strong ETag; a 304 answers the form the browser holds.
    const etags = [br.headers.etag, gzip.headers.etag, identity.headers.etag];
    expect(new Set(etags).size).toBe(3);
    const notModified = await ctx.app.inject({
      url: '/api/content/topics',
      headers: { 'accept-encoding': 'br, gzip', 'if-none-match': String(br.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers.etag).toBe(br.headers.etag);
    expect(String(notModified.headers.vary)).toMatch(/accept-encoding/i);
    const otherForm = await ctx.app.inject({
      url: '/api/content/topics',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) },
    });
    expect(otherForm.statusCode).toBe(200);
    expect(otherForm.headers['content-encoding']).toBe('gzip');
    expect(compressCalls()).toBe(0);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('compressed forms of a cached answer', () => {
  const text = Buffer.from(
    JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ i, label: `item ${i}` })) }),
  );

  it('a text answer of 1 KB or more keeps a brotli and a gzip form, each with its own strong ETag', async () => {
    const forms = await compressAnswer(text, 'application/json; charset=utf-8', '"abc"');
    expect(forms.br?.etag).toBe('"abc-br"');
    expect(forms.gzip?.etag).toBe('"abc-gzip"');
    expect(zlib.brotliDecompressSync(forms.br!.body).equals(text)).toBe(true);
    expect(zlib.gunzipSync(forms.gzip!.body).equals(text)).toBe(true);
  });

  it('small answers and binary types stay identity only', async () => {
    expect(await compressAnswer(text.subarray(0, 1000), 'application/json', '"abc"')).toEqual({});
    expect(await compressAnswer(text, 'image/png', '"abc"')).toEqual({});
  });

  it('picks br, else gzip, else identity from Accept-Encoding (q-values honoured)', () => {
    const answer = {
      body: Buffer.from('identity'),
      etag: '"e"',
      encoded: { br: { body: Buffer.from('b'), etag: '"e-br"' }, gzip: { body: Buffer.from('g'), etag: '"e-gzip"' } },
    };
    expect(pickForm(answer, 'gzip, deflate, br').encoding).toBe('br');
    expect(pickForm(answer, 'br;q=0, gzip').encoding).toBe('gzip');
    expect(pickForm(answer, 'deflate')).toEqual({ body: answer.body, etag: '"e"', encoding: undefined });
    expect(pickForm(answer, undefined).encoding).toBeUndefined();
    expect(pickForm({ ...answer, encoded: {} }, 'br, gzip').encoding).toBeUndefined();
  });
});
