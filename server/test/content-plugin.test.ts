import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config';
import { contentPlugin, type ContentLimits } from '../src/content/plugin';
import { previewKey, previewPageUrl } from '../src/content/preview';
import { errorHandlerPlugin } from '../src/platform/error-handler';
import { buildTestApp, portalHeaders, sendContentWebhook, testConfig } from './helpers';
import { freePort } from './support/strapi';
import { json, startFakeUpstream } from './support/fake-upstream';

/**
 * Unit-level tests of the content proxy against a small local HTTP server playing the CMS (the only place a
 * fake CMS is allowed). The real Strapi is exercised in content-proxy.test.ts.
 */

const TOKEN = 'fake-cms-token-5f2c9a7d1e3b';
const topics = {
  data: [
    {
      id: 1,
      documentId: 'abc123def456ghi789jkl012',
      attributes: { title: 'Contact', slug: 'contact', publishedAt: '2026-01-01T00:00:00.000Z' },
    },
  ],
  meta: {},
};

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

const defaultHandler = (req: { url: string }, res: import('node:http').ServerResponse) => {
  if (req.url.startsWith('/uploads/logo.png')) {
    res.writeHead(200, { 'content-type': 'image/png' });
    return void res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  }
  if (req.url.startsWith('/uploads/evil.svg')) {
    res.writeHead(200, { 'content-type': 'image/svg+xml' });
    return void res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  }
  if (req.url.startsWith('/uploads/page.html')) {
    res.writeHead(200, { 'content-type': 'text/html' });
    return void res.end('<script>alert(1)</script>');
  }
  if (req.url.startsWith('/uploads/')) return json(res, 404, { data: null, error: { status: 404 } });
  if (req.url.startsWith('/api/topics/'))
    return json(res, 404, { data: null, error: { status: 404, name: 'NotFoundError' } });
  if (req.url.startsWith('/api/topics')) return json(res, 200, topics);
  if (req.url.startsWith('/api/license'))
    return json(res, 200, { data: { id: 1, attributes: { LicenseText: 'text' } }, meta: {} });
  if (req.url.startsWith('/api/security-questions')) return json(res, 200, { data: [], meta: {} });
  if (req.url.startsWith('/api/error-messages'))
    return json(res, 400, { data: null, error: { status: 400, name: 'ValidationError' } });
  return json(res, 404, { data: null, error: { status: 404, name: 'NotFoundError' } });
};

describe('content proxy (against a local stand-in for the CMS)', () => {
  let upstream: Upstream;
  let ctx: Ctx;

  beforeAll(async () => {
    upstream = await startFakeUpstream(defaultHandler);
    ctx = await buildTestApp({
      config: testConfig({ CMS_URL: upstream.url, CMS_TOKEN: TOKEN, CMS_TIMEOUT_MS: '300' }),
    });
  });
  afterAll(async () => {
    await ctx.app.close();
    await upstream.close();
  });
  afterEach(() => {
    upstream.setHandler(defaultHandler);
    upstream.requests.length = 0;
    ctx.app.contentCache.content.clear();
    ctx.app.contentCache.uploads.clear();
  });

  it('forwards an allowed read with the server-held token and the v4 format header, and nothing from the browser', async () => {
    const res = await ctx.app.inject({
      url: '/api/content/topics?sort=order:asc&filters[slug][$eq]=contact&populate=*',
      headers: {
        cookie: 'session=browser-cookie',
        authorization: 'Bearer browser-token',
        'x-forwarded-for': '10.9.9.9',
        'x-forwarded-host': 'evil.example',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(topics);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(upstream.requests).toHaveLength(1);
    const [sent] = upstream.requests;
    expect(sent!.method).toBe('GET');
    expect(sent!.url).toBe('/api/topics?filters[slug][$eq]=contact&populate=*&sort=order:asc');
    expect(sent!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent!.headers['strapi-response-format']).toBe('v4');
    expect(sent!.headers.cookie).toBeUndefined();
    expect(Object.keys(sent!.headers).filter((h) => h.startsWith('x-forwarded'))).toEqual([]);
    expect(JSON.stringify(res.headers)).not.toContain(TOKEN);
    expect(res.body).not.toContain(TOKEN);
  });

  it('caches: a repeated read (params in another order) does not reach the CMS; If-None-Match answers 304; HEAD works', async () => {
    const first = await ctx.app.inject('/api/content/topics?populate=*&sort=order:asc');
    const second = await ctx.app.inject('/api/content/topics?sort=order%3Aasc&populate=*');
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    const notModified = await ctx.app.inject({
      url: '/api/content/topics?populate=*&sort=order:asc',
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(first.headers.etag);
    const head = await ctx.app.inject({ method: 'HEAD', url: '/api/content/topics?populate=*&sort=order:asc' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(upstream.requests).toHaveLength(1);
  });

  it('single-flight: 25 concurrent misses make one upstream request', async () => {
    upstream.setHandler((req, res) => void setTimeout(() => defaultHandler(req, res), 100));
    const answers = await Promise.all(Array.from({ length: 25 }, () => ctx.app.inject('/api/content/topics')));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(upstream.requests).toHaveLength(1);
  });

  it('an unknown type or document path answers 404 without asking the CMS', async () => {
    for (const url of [
      '/api/content/users',
      '/api/content/admin',
      '/api/content/topics/..%2F..%2Fadmin',
      '/api/content/license/abc',
      '/api/content/upload/files',
      '/api/content/webhook',
    ]) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ errorMessage: 'Not_Found' });
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('a parameter outside the allow-list answers 400 Validation_Failed without asking the CMS', async () => {
    // Twice each: the proxy remembers the URLs it accepted, never the ones it refused.
    for (const q of [
      'status=draft',
      'locale=fr',
      'filters[slug][$ne]=x',
      'pagination[page]=x',
      'populate=admin%0Auser',
      'filters[order][$eq]=abc',
      'status=draft',
    ]) {
      const res = await ctx.app.inject(`/api/content/topics?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toEqual({ errorMessage: 'Validation_Failed' });
    }
    for (let i = 0; i < 2; i++) expect((await ctx.app.inject('/api/content/users')).statusCode).toBe(404);
    expect(upstream.requests).toHaveLength(0);
  });

  it('caps pagination[pageSize] at 100', async () => {
    await ctx.app.inject('/api/content/security-questions?pagination[pageSize]=1000');
    expect(upstream.requests[0]!.url).toBe('/api/security-questions?pagination[pageSize]=100');
  });

  it('drops publicationState=preview when preview is off (drafts never leave the server)', async () => {
    const res = await ctx.app.inject('/api/content/topics?publicationState=preview&filters[slug][$eq]=x');
    expect(res.statusCode).toBe(200);
    expect(upstream.requests[0]!.url).toBe('/api/topics?filters[slug][$eq]=x');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('maps CMS answers: 404 → Not_Found, any other 4xx → 400 Validation_Failed, 401/403/5xx → 502 Content_Unavailable, never a 500', async () => {
    expect((await ctx.app.inject('/api/content/topics/zzz')).statusCode).toBe(404);
    const bad = await ctx.app.inject('/api/content/error-messages?filters[ErrorCode][$eq]=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errorMessage: 'Validation_Failed' });
    for (const [status, expected] of [
      [400, 400],
      [405, 400],
      [414, 400],
      [422, 400],
      [401, 502],
      [403, 502],
      [500, 502],
      [503, 502],
    ] as const) {
      upstream.setHandler((_req, res) => json(res, status, { data: null, error: { status } }));
      const res = await ctx.app.inject(`/api/content/license?fields[0]=id&sort[0]=id:asc&pagination[page]=${status}`);
      expect(res.statusCode, String(status)).toBe(expected);
      expect(res.json()).toEqual({ errorMessage: expected === 400 ? 'Validation_Failed' : 'Content_Unavailable' });
    }
  });

  it('a query the CMS fails (5xx) or refuses (4xx), asked again and again, pauses no other query', async () => {
    upstream.setHandler((req, res) => {
      if (req.url.includes('filters[slug]')) return json(res, 500, { data: null, error: { status: 500 } });
      if (req.url.includes('filters[title]')) return json(res, 400, { data: null, error: { status: 400 } });
      return defaultHandler(req, res);
    });
    for (let i = 0; i < 8; i++) {
      expect((await ctx.app.inject('/api/content/topics?filters[slug][$containsi]=1')).statusCode).toBe(502);
      expect((await ctx.app.inject('/api/content/topics?filters[title][$containsi]=1')).statusCode).toBe(400);
    }
    // Each failing query reached the CMS once: the proxy remembers the failure for that query.
    expect(upstream.requests).toHaveLength(2);
    expect(ctx.app.contentCache.content.breakerOpen).toBe(false);
    expect(ctx.logLines.some((l) => l.includes('the CMS failed this query'))).toBe(true);
    for (const q of ['sort=order:asc', 'fields[0]=title', 'pagination[page]=2', 'filters[order][$eq]=3']) {
      expect((await ctx.app.inject(`/api/content/topics?${q}`)).statusCode, q).toBe(200);
    }
  });

  it('an upstream that hangs past CMS_TIMEOUT_MS answers 502, and says why once', async () => {
    upstream.setHandler(() => undefined); // never answers
    const res = await ctx.app.inject('/api/content/security-questions');
    expect(res.statusCode).toBe(502);
    expect(ctx.logLines.some((l) => l.includes('no complete upstream answer within 300 ms'))).toBe(true);
  });

  it('an answer over the size cap (5 MB) is refused with 502', async () => {
    upstream.setHandler((_req, res) => json(res, 200, { data: 'x'.repeat(6 * 1024 * 1024) }));
    const res = await ctx.app.inject('/api/content/topics?fields[0]=title');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ errorMessage: 'Content_Unavailable' });
  });

  it('CMS down: the last good copy is served with X-Content-Stale: 1; an uncached path answers 502 Content_Unavailable', async () => {
    const good = await ctx.app.inject('/api/content/license?populate=*');
    expect(good.statusCode).toBe(200);
    // Invalidate through the webhook so the next read must ask the (now failing) CMS.
    upstream.setHandler((_req, res) => void res.destroy());
    expect((await sendContentWebhook(ctx)).statusCode).toBe(204);
    const stale = await ctx.app.inject('/api/content/license?populate=*');
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-content-stale']).toBe('1');
    expect(stale.body).toBe(good.body);
    const missing = await ctx.app.inject('/api/content/topics?populate=*');
    expect(missing.statusCode).toBe(502);
    expect(missing.json()).toEqual({ errorMessage: 'Content_Unavailable' });
    expect(ctx.logLines.some((l) => l.includes('Content is unavailable'))).toBe(true);
  });

  it('only GET and HEAD: other methods answer 405', async () => {
    const res = await ctx.app.inject({ method: 'DELETE', url: '/api/content/topics/abc', headers: portalHeaders });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ errorMessage: 'Method_Not_Allowed' });
    expect(upstream.requests).toHaveLength(0);
  });

  describe('webhook', () => {
    it('creates the shared secret file (mode 0600) when the portal starts first', () => {
      const file = join(ctx.config.dataDir, 'cms-webhook-secret');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(40);
    });

    it('a wrong or missing secret answers 401 Unauthorized and keeps the cache', async () => {
      await ctx.app.inject('/api/content/topics');
      for (const headers of [{}, { 'x-webhook-secret': 'wrong' }]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/content/webhook',
          headers,
          payload: { event: 'entry.publish' },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ errorMessage: 'Unauthorized' });
      }
      await ctx.app.inject('/api/content/topics');
      expect(upstream.requests).toHaveLength(1);
    });

    it('the right secret (no CSRF header needed) answers 204 and the next read serves the new content', async () => {
      const secret = readFileSync(join(ctx.config.dataDir, 'cms-webhook-secret'), 'utf8').trim();
      let title = 'Contact';
      upstream.setHandler((req, res) =>
        json(res, 200, { data: [{ id: 1, attributes: { title, slug: 'contact' } }], meta: {} }),
      );
      expect((await ctx.app.inject('/api/content/topics')).json().data[0].attributes.title).toBe('Contact');
      title = 'Contact us (edited)';
      // Cached: the edit is not visible before the webhook.
      expect((await ctx.app.inject('/api/content/topics')).json().data[0].attributes.title).toBe('Contact');
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/content/webhook',
        headers: { 'x-webhook-secret': secret, 'content-type': 'application/json' },
        payload: JSON.stringify({ event: 'entry.publish', model: 'topic', entry: { id: 1 } }),
      });
      expect(res.statusCode).toBe(204);
      const after = await ctx.app.inject('/api/content/topics');
      expect(after.statusCode).toBe(200);
      expect(after.headers['x-content-stale']).toBeUndefined();
      expect(after.json().data[0].attributes.title).toBe('Contact us (edited)');
      expect(upstream.requests).toHaveLength(2);
      expect(ctx.logLines.join('\n')).not.toContain(secret);
    });

    it('refuses an oversized body (413) but an authenticated sender still invalidated the cache', async () => {
      const secret = readFileSync(join(ctx.config.dataDir, 'cms-webhook-secret'), 'utf8').trim();
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/content/webhook',
        headers: { 'x-webhook-secret': secret, 'content-type': 'application/json' },
        payload: JSON.stringify({ x: 'y'.repeat(3 * 1024 * 1024) }),
      });
      expect(res.statusCode).toBe(413);
      const anonymous = await ctx.app.inject({
        method: 'POST',
        url: '/api/content/webhook',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ x: 'y'.repeat(3 * 1024 * 1024) }),
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('uploads', () => {
    it('proxies an image with its type, a day of caching, an ETag and a locked-down CSP', async () => {
      const res = await ctx.app.inject('/uploads/logo.png');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      expect(res.rawPayload).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const again = await ctx.app.inject({
        url: '/uploads/logo.png',
        headers: { 'if-none-match': res.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]!.headers.authorization).toBeUndefined();
    });

    it('an SVG keeps its type under the sandboxing CSP; a non-image becomes a download', async () => {
      const svg = await ctx.app.inject('/uploads/evil.svg');
      expect(svg.headers['content-type']).toBe('image/svg+xml');
      expect(svg.headers['content-security-policy']).toContain('sandbox');
      const html = await ctx.app.inject('/uploads/page.html');
      expect(html.headers['content-type']).toBe('application/octet-stream');
      expect(html.headers['content-disposition']).toBe('attachment');
    });

    it('404 when the CMS has no such file, and for paths that try to leave /uploads', async () => {
      expect((await ctx.app.inject('/uploads/missing.png')).statusCode).toBe(404);
      for (const url of ['/uploads/..%2F..%2Fadmin', '/uploads/.env', '/uploads/a%2F%2E%2E%2Fadmin']) {
        expect((await ctx.app.inject(url)).statusCode, url).toBe(404);
      }
      expect(upstream.requests.map((r) => r.url)).toEqual(['/uploads/missing.png']);
    });
  });

  it('the token never appears in a log line, whatever the CMS answers', async () => {
    const before = ctx.logLines.length;
    for (const status of [200, 400, 401, 500]) {
      upstream.setHandler((_req, res) => json(res, status, { data: [], meta: {} }));
      await ctx.app.inject(`/api/content/security-questions?pagination[page]=${status}`);
    }
    upstream.setHandler((_req, res) => void res.destroy());
    await ctx.app.inject('/api/content/security-questions?pagination[page]=1');
    expect(ctx.logLines.length).toBeGreaterThan(before);
    expect(ctx.logLines.join('\n')).not.toContain(TOKEN);
  });
});

describe('content proxy token handover and preview', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream((req, res) => {
      const auth = req.headers.authorization;
      if (auth !== 'Bearer current-token-abc')
        return json(res, 401, { data: null, error: { status: 401, name: 'UnauthorizedError' } });
      return json(res, 200, { data: [], meta: { url: req.url } });
    });
  });
  afterAll(async () => upstream.close());

  it('without a token the proxy answers 502; the token file is read once it appears, and re-read after a 401', async () => {
    const ctx = await buildTestApp({ config: testConfig({ CMS_URL: upstream.url }) });
    try {
      const before = await ctx.app.inject('/api/content/topics');
      expect(before.statusCode).toBe(502);
      expect(upstream.requests).toHaveLength(0);
      ctx.app.contentCache.content.clear();

      writeFileSync(join(ctx.config.dataDir, 'cms-api-token'), 'old-token-xyz\n', { mode: 0o600 });
      // The CMS has already moved on to a new token: the proxy gets 401, re-reads the file, sees the same old
      // token, and gives up (502) rather than retrying in a loop.
      expect((await ctx.app.inject('/api/content/topics')).statusCode).toBe(502);
      expect(upstream.requests).toHaveLength(1);
      ctx.app.contentCache.content.clear();

      writeFileSync(join(ctx.config.dataDir, 'cms-api-token'), 'current-token-abc\n', { mode: 0o600 });
      const after = await ctx.app.inject('/api/content/topics?fields[0]=title');
      expect(after.statusCode).toBe(200);
      // One 401 with the old token, then one retry with the re-read one.
      expect(upstream.requests.slice(1).map((r) => r.headers.authorization)).toEqual([
        'Bearer old-token-xyz',
        'Bearer current-token-abc',
      ]);
      const logged = ctx.logLines.join('\n');
      for (const t of ['old-token-xyz', 'current-token-abc']) {
        expect(logged).not.toContain(t);
        expect(after.body).not.toContain(t);
      }
    } finally {
      await ctx.app.close();
      upstream.requests.length = 0;
    }
  }, 20_000);

  it('serves a draft only to the holder of the link the CMS signed for that document, never cached', async () => {
    const webhookSecret = 'webhook-secret-for-tests-0123456789';
    const ctx = await buildTestApp({
      config: testConfig({ CMS_URL: upstream.url, CMS_TOKEN: 'current-token-abc', CMS_WEBHOOK_SECRET: webhookSecret }),
    });
    try {
      const key = previewKey(webhookSecret);
      const grant = { type: 'topics', documentId: 'draftdoc0001', expires: Date.now() + 60_000 } as const;
      const link = new URL(previewPageUrl(ctx.config.publicUrl, key, grant));
      const api = `/api/content/preview/topics/draftdoc0001${link.search}`;
      for (let i = 0; i < 2; i++) {
        const res = await ctx.app.inject(api);
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers.etag).toBeUndefined();
      }
      expect(upstream.requests.map((r) => r.url)).toEqual([
        '/api/topics/draftdoc0001?populate=*&status=draft',
        '/api/topics/draftdoc0001?populate=*&status=draft',
      ]);
      const refused = {
        'no signature': '/api/content/preview/topics/draftdoc0001',
        'another document': `/api/content/preview/topics/otherdoc0002${link.search}`,
        'another key': `/api/content/preview/topics/draftdoc0001${new URL(previewPageUrl(ctx.config.publicUrl, previewKey('another-secret-0123456789abcdef'), grant)).search}`,
        expired: `/api/content/preview/topics/draftdoc0001${new URL(previewPageUrl(ctx.config.publicUrl, key, { ...grant, expires: Date.now() - 1 })).search}`,
      };
      for (const [why, url] of Object.entries(refused)) {
        const res = await ctx.app.inject(url);
        expect(res.statusCode, why).toBe(404);
        expect(res.json(), why).toEqual({ errorMessage: 'Not_Found' });
      }
      expect(upstream.requests).toHaveLength(2);
      // The public read ignores publicationState=preview: published content, through the cache.
      await ctx.app.inject('/api/content/topics?publicationState=preview&filters[slug][$eq]=draft');
      expect(upstream.requests.at(-1)!.url).toBe('/api/topics?filters[slug][$eq]=draft');
      expect(ctx.logLines.join('\n')).not.toContain(link.searchParams.get('signature')!);
    } finally {
      await ctx.app.close();
      upstream.requests.length = 0;
    }
  });

  it("CMS_TIMEOUT_MS (default 5 s) is the server's own upstream deadline", () => {
    expect(loadConfig({}).cms.timeoutMs).toBe(5000);
    expect(loadConfig({ CMS_TIMEOUT_MS: '1500' }).cms.timeoutMs).toBe(1500);
  });

  it('a configured CMS_WEBHOOK_SECRET is used instead of the file', async () => {
    const ctx = await buildTestApp({
      config: testConfig({ CMS_URL: upstream.url, CMS_WEBHOOK_SECRET: 'configured-webhook-secret-0123' }),
    });
    try {
      const ok = await ctx.app.inject({
        method: 'POST',
        url: '/api/content/webhook',
        headers: { 'x-webhook-secret': 'configured-webhook-secret-0123' },
      });
      expect(ok.statusCode).toBe(204);
      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/content/webhook',
        headers: { 'x-webhook-secret': 'configured-webhook-secret-0124' },
      });
      expect(bad.statusCode).toBe(401);
    } finally {
      await ctx.app.close();
    }
  });
});

/** The content plugin alone, with small limits (the app registers it with the defaults). */
async function buildContentApp(config: Config, limits: Partial<ContentLimits>) {
  const logLines: string[] = [];
  const app = Fastify({ logger: { level: 'debug', stream: { write: (line: string) => void logLines.push(line) } } });
  await app.register(errorHandlerPlugin);
  await app.register(contentPlugin, { config, limits });
  app.addHook('onClose', async () => rmSync(config.dataDir, { recursive: true, force: true }));
  await app.ready();
  return { app, logLines };
}

describe('content proxy limits and outage reporting', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream(defaultHandler);
  });
  afterAll(async () => upstream.close());

  it('uncached reads are limited per client: 429 Too_Many_Requests with Retry-After; cached answers and other clients are not', async () => {
    const { app } = await buildContentApp(testConfig({ CMS_URL: upstream.url, CMS_TOKEN: TOKEN }), {
      uncachedPerMinute: 3,
    });
    try {
      const from = (remoteAddress: string, url: string) => app.inject({ url, remoteAddress });
      for (let i = 1; i <= 3; i++)
        expect((await from('10.0.0.1', `/api/content/topics?pagination[page]=${i}`)).statusCode).toBe(200);
      const limited = await from('10.0.0.1', '/api/content/topics?pagination[page]=4');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // A cached answer is still served to the limited client, even past its TTL; CMS 4xx answers count (uncached).
      expect((await from('10.0.0.1', '/api/content/topics?pagination[page]=1')).statusCode).toBe(200);
      app.contentCache.content.invalidateAll();
      expect((await from('10.0.0.1', '/api/content/topics?pagination[page]=1')).statusCode).toBe(429);
      expect((await from('10.0.0.2', '/api/content/error-messages?filters[ErrorCode][$eq]=A')).statusCode).toBe(400);
      expect((await from('10.0.0.2', '/api/content/topics?pagination[page]=4')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('the webhook is rate limited', async () => {
    const config = testConfig({
      CMS_URL: upstream.url,
      CMS_TOKEN: TOKEN,
      CMS_WEBHOOK_SECRET: 'configured-webhook-secret-0123',
    });
    const { app } = await buildContentApp(config, { webhookPerMinute: 2 });
    try {
      const send = () =>
        app.inject({
          method: 'POST',
          url: '/api/content/webhook',
          headers: { 'x-webhook-secret': 'configured-webhook-secret-0123' },
        });
      expect((await send()).statusCode).toBe(204);
      expect((await send()).statusCode).toBe(204);
      const limited = await send();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
      expect(limited.headers['retry-after']).toBeDefined();
    } finally {
      await app.close();
    }
  });

  it('while the CMS is down (e.g. still starting), requests log no error and no stack: one warning per outage, then one line when it is back', async () => {
    const port = await freePort();
    const { app, logLines } = await buildContentApp(
      testConfig({ CMS_URL: `http://127.0.0.1:${port}`, CMS_TOKEN: TOKEN }),
      { retryAfterFailureMs: 0 },
    );
    try {
      for (let i = 0; i < 6; i++)
        expect((await app.inject(`/api/content/topics?pagination[page]=${i + 1}`)).statusCode).toBe(502);
      const entries = logLines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
      expect(entries.filter((e) => e.level >= 50)).toEqual([]);
      expect(entries.filter((e) => e.err !== undefined)).toEqual([]);
      expect(entries.filter((e) => e.level === 40).map((e) => e.msg)).toEqual([
        expect.stringContaining('Content is unavailable'),
      ]);
      // The CMS comes up on that port: one line says so, and a later outage is reported again.
      const cms = await startFakeUpstream(defaultHandler, port);
      try {
        expect((await app.inject('/api/content/topics?pagination[page]=9')).statusCode).toBe(200);
        expect(logLines.filter((l) => l.includes('The CMS answers again'))).toHaveLength(1);
      } finally {
        await cms.close();
      }
      expect((await app.inject('/api/content/topics?pagination[page]=10')).statusCode).toBe(502);
      expect(logLines.filter((l) => l.includes('Content is unavailable'))).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});
