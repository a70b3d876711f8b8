import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@portal/contracts/auth';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, sendContentWebhook, testConfig } from './helpers';
import { createAccount, createLocation, link } from './factories';
import { json, startFakeUpstream } from './support/fake-upstream';

/**
 * The server's half of server rendering (server/src/modules/web/server-render.ts, docs/decisions/0018-server-rendering.md)
 * with a stand-in for the web's server entry: content read in-process through the content proxy's cache, the page
 * cache per variant, ETag revalidation, the webhook's invalidation, and the shell when content cannot be read.
 * The real entry and hydration are exercised in e2e/server-rendering.test.ts.
 */

// The entry the web build would produce (web/dist-ssr/entry-server.js), reduced to what the server calls.
const FAKE_ENTRY = `
let content;
globalThis.__renders = 0;
export function configureServerRendering(options) { content = options.content; }
export function pageRequiresLogin(path) { return path === '/account'; }
export function pageVariant(request) {
  if (!request.path.startsWith('/topics/')) return undefined;
  return [request.path, request.cookies.region ?? '', request.cookies.license ?? '', /veracode/i.test(request.userAgent) ? '' : 'dialogs', request.session ? (request.session.administersLocation ? 'administrator' : 'logged-in') : request.sessionCookie ? 'session' : ''].join('|');
}
export async function renderPage(request) {
  globalThis.__renders++;
  // A personal page is rendered at its whole URL (its query too).
  if (request.path.split('?')[0] === '/account') {
    // The page's own API read, as the real entry's sessionQueries make it.
    const account = request.readApi ? await request.readApi('/api/account') : undefined;
    return {
      status: 200,
      head: '<title>My account</title>',
      root: request.session?.loggedIn
        ? '<h1>My account, personal data</h1>' + (account ? '<p>' + account.status + ' ' + account.payload?.data?.username + '</p>' : '') +
          // As long as a real page's markup (several KB), so that it is worth compressing.
          '<ul>' + Array.from({ length: 60 }, (_, i) => '<li class="row">personal row ' + i + '</li>').join('') + '</ul>'
        : '<h1>logged out</h1>',
      state: '<script type="application/json" id="portal-server-state">{}</script>',
    };
  }
  const slug = request.path.slice('/topics/'.length);
  const answer = await content('/api/content/topics?filters[slug][$eq]=' + slug + '&populate=*');
  if (answer.status !== 200) return undefined;
  const title = answer.payload.data[0]?.attributes.title;
  return {
    status: title ? 200 : 404,
    head: '<title>' + (title ?? 'Content not found') + '</title><style>h1{}</style>',
    root: '<h1>' + (title ?? 'not found') + ' for ' + (request.cookies.region ?? 'nobody') + '</h1>' + (request.session ? '<p>logged in' + (request.session.administersLocation ? ', administrator' : '') + '</p>' : request.sessionCookie ? '<p>session cookie</p>' : ''),
    state: '<script type="application/json" id="portal-server-state">{}</script>',
  };
}
`;

const renders = () => (globalThis as { __renders?: number }).__renders ?? 0;

describe('server-rendered pages', () => {
  let title = 'Contact us';
  let failing = false;
  const upstream = { handle: null as Awaited<ReturnType<typeof startFakeUpstream>> | null };
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  const webRoot = mkdtempSync(join(tmpdir(), 'portal-test-web-'));

  beforeAll(async () => {
    upstream.handle = await startFakeUpstream((req, res) => {
      if (failing) return json(res, 500, { data: null, error: { status: 500 } });
      if (req.url.startsWith('/api/topics') && req.url.includes('missing'))
        return json(res, 200, { data: [], meta: {} });
      if (req.url.startsWith('/api/topics'))
        return json(res, 200, {
          data: [{ id: 1, attributes: { title, slug: 'contact', publishedAt: '2026-01-01T00:00:00.000Z' } }],
          meta: {},
        });
      return json(res, 404, { data: null, error: { status: 404 } });
    });
    mkdirSync(join(webRoot, 'dist', 'assets'), { recursive: true });
    mkdirSync(join(webRoot, 'dist-ssr'), { recursive: true });
    writeFileSync(
      join(webRoot, 'dist', 'index.html'),
      '<!doctype html><meta name="description" content="The portal">\n<title>Portal</title>\n<!--app-head--><div id="root"><!--app-root--></div><!--app-state-->',
    );
    writeFileSync(join(webRoot, 'dist', 'assets', 'lato-latin-700-normal-Abc123.woff2'), '');
    writeFileSync(join(webRoot, 'dist-ssr', 'entry-server.js'), FAKE_ENTRY);
    ctx = await buildTestApp({
      config: testConfig({
        CMS_URL: upstream.handle.url,
        CMS_TOKEN: 'fake-cms-token-5f2c9a7d1e3b',
        WEB_DIST_DIR: join(webRoot, 'dist'),
        CMS_TIMEOUT_MS: '300',
      }),
    });
  });
  afterAll(async () => {
    await ctx.app.close();
    await upstream.handle?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });
  afterEach(() => {
    failing = false;
    title = 'Contact us';
    ctx.app.contentCache.content.clear();
    ctx.app.contentCache.pages.clear();
    upstream.handle!.requests.length = 0;
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ url, headers: { cookie: 'region=J5A; amaApproved=true', ...headers } });

  it('renders the page from content read through the content cache, then serves it from the page cache', async () => {
    const before = renders();
    const first = await get('/topics/contact');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.body).toContain('<div id="root"><h1>Contact us for J5A</h1></div>');
    expect(first.body).toContain(
      '<link rel="preload" as="font" type="font/woff2" href="/assets/lato-latin-700-normal-Abc123.woff2" crossorigin>',
    );
    expect(upstream.handle!.requests).toHaveLength(1);
    // The same content is now a cache hit for the JSON route too: one CMS request in all.
    expect(
      (await ctx.app.inject({ url: '/api/content/topics?filters[slug][$eq]=contact&populate=*' })).statusCode,
    ).toBe(200);
    const second = await get('/topics/contact');
    expect(second.body).toBe(first.body);
    expect(renders() - before).toBe(1);
    expect(upstream.handle!.requests).toHaveLength(1);
  });

  it("heads the page with its own title and description, not the shell's", async () => {
    const page = await get('/topics/contact');
    expect(page.body).toContain('<title>Contact us</title>');
    expect(page.body).not.toContain('<title>Portal</title>');
    expect(page.body).not.toContain('The portal');
    // The shell keeps its own.
    expect((await get('/login')).body).toContain('<title>Portal</title>');
  });

  it('answers a rendered not-found state 404, from the page cache too', async () => {
    const before = renders();
    for (let i = 0; i < 2; i++) {
      const res = await get('/topics/missing');
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<title>Content not found</title>');
    }
    expect(renders() - before).toBe(1);
  });

  it("sends an editor's preview page as the browser-rendered shell, uncached, framable by the CMS admin only", async () => {
    const before = renders();
    const res = await get('/preview/topics/abc123?expires=1&signature=x');
    expect(res.statusCode).toBe(200);
    expect(renders()).toBe(before);
    expect(res.body).toContain('<!--app-root-->');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`frame-ancestors ${ctx.config.cms.adminOrigin}`);
    expect(csp).toContain("script-src 'self'");
    expect(ctx.app.contentCache.pages.size).toBe(0);
    // Every other page keeps refusing to be framed.
    const other = await get('/topics/contact');
    expect(other.headers['x-frame-options']).toBe('DENY');
    expect(String(other.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('answers 304 when the browser has the current page', async () => {
    const first = await get('/topics/contact');
    const again = await get('/topics/contact', { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('keeps one page per jurisdiction', async () => {
    expect((await get('/topics/contact', { cookie: 'region=J8B; amaApproved=true' })).body).toContain('for J8B');
    expect((await get('/topics/contact')).body).toContain('for J5A');
  });

  it('tells the entry whether a session cookie was sent, and shares that page between sessions', async () => {
    const before = renders();
    expect((await get('/topics/contact')).body).not.toContain('session cookie');
    const withCookie = (value: string) =>
      get('/topics/contact', { cookie: `region=J5A; amaApproved=true; portal_session=${value}` });
    expect((await withCookie('first-session-id')).body).toContain('<p>session cookie</p>');
    expect((await withCookie('another-session-id')).body).toContain('<p>session cookie</p>');
    expect(renders() - before).toBe(2);
  });

  it('renders again after the CMS webhook', async () => {
    expect((await get('/topics/contact')).body).toContain('Contact us');
    title = 'Contact the contractor';
    expect((await sendContentWebhook(ctx)).statusCode).toBe(204);
    expect((await get('/topics/contact')).body).toContain('Contact the contractor for J5A');
  });

  it('sends the browser-rendered shell when the content cannot be read, and for pages it does not render', async () => {
    failing = true;
    const res = await get('/topics/contact');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"><!--app-root--></div>');
    expect((await get('/login')).body).toContain('<div id="root"><!--app-root--></div>');
  });

  describe('unknown pages (issue 19, finding 9)', () => {
    let small: Awaited<ReturnType<typeof buildTestApp>>;
    beforeAll(async () => {
      // 5 page renders or uncached reads per client and minute; room for 20 pages.
      small = await buildTestApp({
        config: testConfig({
          CMS_URL: upstream.handle!.url,
          CMS_TOKEN: 'fake-cms-token-5f2c9a7d1e3b',
          WEB_DIST_DIR: join(webRoot, 'dist'),
          CONTENT_MISSES_PER_MINUTE: '5',
        }),
        contentLimits: { contentCacheEntries: 20 },
      });
    });
    afterAll(() => small.app.close());
    const page = (url: string, remoteAddress: string) =>
      small.app.inject({ url, remoteAddress, headers: { cookie: 'region=J5A; amaApproved=true' } });

    it('limits the renders of one client: made-up topics past the budget get 429, cached pages and other clients do not', async () => {
      expect((await page('/topics/contact', '192.0.2.1')).statusCode).toBe(200);
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push((await page(`/topics/missing-${i}`, '192.0.2.1')).statusCode);
      expect(statuses).toEqual([404, 404, 404, 404, 429, 429, 429, 429]);
      const limited = await page('/topics/missing-x', '192.0.2.1');
      expect(limited.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // A page already rendered costs nothing and is still served to this client.
      expect((await page('/topics/contact', '192.0.2.1')).statusCode).toBe(200);
      // So is the last unknown page it rendered (kept among the misses).
      expect((await page('/topics/missing-3', '192.0.2.1')).statusCode).toBe(404);
      // Another client has its own budget.
      expect((await page('/topics/missing-y', '192.0.2.2')).statusCode).toBe(404);
    });

    it('does not let unknown pages push real pages out of the page cache', async () => {
      small.app.contentCache.pages.clear();
      small.app.contentCache.content.clear();
      const before = renders();
      expect((await page('/topics/contact', '198.51.100.1')).statusCode).toBe(200);
      // 60 made-up topics (three times the cache's room), from clients within their budgets.
      for (let i = 0; i < 60; i++)
        expect((await page(`/topics/missing-many-${i}`, `198.51.100.${10 + Math.floor(i / 4)}`)).statusCode).toBe(404);
      const rendered = renders();
      expect(rendered - before).toBe(61);
      // The real page is still cached: served without a render.
      expect((await page('/topics/contact', '198.51.100.2')).body).toContain('Contact us for J5A');
      expect(renders()).toBe(rendered);
    });
  });

  describe('a page for logged-in users (docs/decisions/0034-server-rendered-portal-pages.md)', () => {
    let username = '';
    const session = async (stage: 'active' | 'mfa') => {
      username = `render.${stage}.${Math.random().toString(36).slice(2, 8)}`;
      const user = await createAccount(ctx.app, username);
      const now = ctx.app.clock();
      return createSession(ctx.app.database.db, { userId: user.id, stage, now, limits: ctx.app.config.sessions });
    };
    const account = (cookie?: string) =>
      ctx.app.inject({
        url: '/account?tab=passkeys',
        headers: cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {},
      });

    it("draws a shared page logged in for an active session's cookie: one page per kind, administrator or not", async () => {
      const topic = (cookie: string) =>
        get('/topics/contact', { cookie: `region=J5A; amaApproved=true; ${SESSION_COOKIE}=${cookie}` });
      const before = renders();
      expect((await topic(await session('active'))).body).toContain('<p>logged in</p>');
      expect((await topic(await session('active'))).body).toContain('<p>logged in</p>');
      const admin = await createAccount(ctx.app, `render.admin.${Math.random().toString(36).slice(2, 8)}`);
      await link(ctx.app, admin.id, (await createLocation(ctx.app)).id, 'administrator');
      const adminCookie = await createSession(ctx.app.database.db, {
        userId: admin.id,
        stage: 'active',
        now: ctx.app.clock(),
        limits: ctx.app.config.sessions,
      });
      expect((await topic(adminCookie)).body).toContain('<p>logged in, administrator</p>');
      // A login waiting for its second factor, or a cookie the server does not know: the page for a session not yet
      // known, which the browser's session check settles.
      expect((await topic(await session('mfa'))).body).toContain('<p>session cookie</p>');
      expect((await topic('ended-session-id')).body).toContain('<p>session cookie</p>');
      // One render per kind: the two end users shared theirs.
      expect(renders() - before).toBe(3);
    });

    it('redirects a visitor without an active session to the login page, which comes back here', async () => {
      const before = renders();
      for (const cookie of [undefined, 'ended-session-id', await session('mfa')]) {
        const res = await account(cookie);
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe('/login?next=%2Faccount%3Ftab%3Dpasskeys');
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.body).toBe('');
      }
      expect(renders() - before).toBe(0);
    });

    it('renders it for the session alone: private, no-store, never from or into the page cache', async () => {
      const cookie = await session('active');
      const before = renders();
      for (let i = 0; i < 2; i++) {
        const res = await account(cookie);
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers.etag).toBeUndefined();
        expect(res.body).toContain('<h1>My account, personal data</h1>');
      }
      // Rendered for each request: nothing was kept.
      expect(renders() - before).toBe(2);
      const next = await account();
      expect(next.statusCode).toBe(302);
      expect(next.body).not.toContain('personal data');
    });

    it('sends it compressed in the coding the browser accepts, plain to one that accepts none (docs/decisions/0090)', async () => {
      const cookie = await session('active');
      const ask = (acceptEncoding?: string) =>
        ctx.app.inject({
          url: '/account?tab=passkeys',
          headers: {
            cookie: `${SESSION_COOKIE}=${cookie}`,
            ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
          },
        });
      const plain = await ask();
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('cookie, accept-encoding');
      expect(plain.headers['cache-control']).toBe('private, no-store');
      expect(plain.body).toContain('<h1>My account, personal data</h1>');
      expect(plain.rawPayload.length).toBeGreaterThan(1024);
      // What would make compression a BREACH oracle is absent: the session's secret is only ever in its HttpOnly cookie.
      expect(plain.body).not.toContain(cookie);
      const codings = [
        ['br, gzip, deflate', 'br', zlib.brotliDecompressSync],
        ['gzip, deflate', 'gzip', zlib.gunzipSync],
      ] as const;
      for (const [acceptEncoding, coding, decode] of codings) {
        const res = await ask(acceptEncoding);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(coding);
        expect(res.headers.vary).toBe('cookie, accept-encoding');
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
        expect(decode(res.rawPayload).toString('utf8')).toBe(plain.body);
      }
      // A coding the server does not offer: the page as it is.
      expect((await ask('compress')).headers['content-encoding']).toBeUndefined();
    });

    it("renders it with the session's own API answers, read in-process (the page's sessionQueries)", async () => {
      const res = await account(await session('active'));
      const first = username;
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      // The same answer the browser's GET /api/account gets with this session.
      expect(res.body).toContain(`<p>200 ${first}</p>`);
      // Another session's page shows its own account only.
      const other = await account(await session('active'));
      expect(other.body).toContain(`<p>200 ${username}</p>`);
      expect(other.body).not.toContain(first);
    });
  });
});
