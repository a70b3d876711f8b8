import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { contentTypeNames } from '@portal/contracts/content-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewKey, previewPageUrl } from '../src/content/preview';
import { buildTestApp, testConfig } from './helpers';
import { freePort, startStrapi, type RunningStrapi } from './support/strapi';

/**
 * The content proxy and the CMS's own settings against the REAL Strapi (cms/scripts/start-headless.mjs on a
 * throw-away SQLite file): no mock. One CMS for this file; the last tests kill it to check the failure policy.
 */

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

const dataDir = mkdtempSync(join(tmpdir(), 'portal-content-it-'));
let cms: RunningStrapi;
let portal: Ctx;
let portalUrl: string;
let adminToken: string | undefined;
const ADMIN = { email: 'editor@example.com', password: 'Editor-passw0rd' };

const token = () => readFileSync(join(dataDir, 'cms-api-token'), 'utf8').trim();

/** Every answer is checked: the CMS token never reaches a browser. */
async function get(app: Ctx['app'], options: string | InjectOptions): Promise<LightMyRequestResponse> {
  const res = await app.inject(options);
  const secret = token();
  expect(res.body).not.toContain(secret);
  expect(JSON.stringify(res.headers)).not.toContain(secret);
  return res;
}

async function cmsAdmin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${cms.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${await res.text()}`);
  return res.json() as Promise<{ data: Record<string, unknown> }>;
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  const cmsPort = await freePort();
  const portalPort = await freePort();
  const common = { DATA_DIR: dataDir, CMS_URL: `http://127.0.0.1:${cmsPort}`, CONTENT_CACHE_TTL_MS: '600000' };
  // The portal starts first (it creates the webhook secret file the CMS then reads) and listens on a real port
  // so the real Strapi webhook can reach it.
  portal = await buildTestApp({ config: testConfig({ ...common, PUBLIC_URL: `http://localhost:${portalPort}` }) });
  await portal.app.listen({ host: '127.0.0.1', port: portalPort });
  portalUrl = `http://127.0.0.1:${portalPort}`;
  const adminTokenFile = join(dataDir, 'test-admin-token');
  cms = await startStrapi({
    portalDataDir: dataDir,
    port: cmsPort,
    webhookUrl: `${portalUrl}/api/content/webhook`,
    env: {
      CMS_TEST_ADMIN_TOKEN_FILE: adminTokenFile,
      CMS_ADMIN_EMAIL: ADMIN.email,
      CMS_ADMIN_PASSWORD: ADMIN.password,
    },
  });
  console.log(`[content-proxy] real Strapi ready in ${cms.startupMs} ms`);
  if (existsSync(adminTokenFile)) adminToken = readFileSync(adminTokenFile, 'utf8').trim();
}, 240_000);

afterAll(async () => {
  await cms?.stop();
  await portal?.app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('content proxy against the real Strapi', () => {
  it('the CMS handed over its token through the data folder, and the portal answers the v4 shape (data.attributes)', async () => {
    expect(token().length).toBeGreaterThan(20);
    const res = await get(portal.app, '/api/content/topics?filters[slug][$eq]=rendering-examples&populate=*');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      id: expect.any(Number),
      documentId: expect.any(String),
      attributes: { slug: 'rendering-examples', title: expect.any(String), publishedAt: expect.any(String) },
    });
    expect(body.data[0].title).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toMatch(/^"/);
  });

  it('serves each allowed type: license, system-use notice, error messages by code, security questions, home page, one topic by documentId', async () => {
    const license = await get(portal.app, '/api/content/license?populate=*');
    expect(license.statusCode).toBe(200);
    expect(license.json().data.attributes.LicenseText).toEqual(expect.any(String));

    const notice = await get(portal.app, '/api/content/system-use-notice');
    expect(notice.statusCode).toBe(200);
    expect(notice.json().data.attributes.NoticeText).toContain('Government-authorized use only');

    const message = await get(portal.app, '/api/content/error-messages/?filters[ErrorCode][$eq]=Content_Unavailable');
    expect(message.statusCode).toBe(200);
    expect(message.json().data[0].attributes).toMatchObject({
      ErrorCode: 'Content_Unavailable',
      Message: expect.any(String),
    });

    const questions = await get(portal.app, '/api/content/security-questions?sort=order:asc&pagination[pageSize]=100');
    expect(questions.statusCode).toBe(200);
    expect(questions.json().data.length).toBeGreaterThan(0);
    expect(questions.json().data[0].attributes).toHaveProperty('question');

    const home = await get(portal.app, '/api/content/home-page?populate=*');
    expect(home.statusCode).toBe(200);
    expect(home.json().data).toHaveProperty('attributes');

    const list = (await get(portal.app, '/api/content/topics?filters[slug][$eq]=contact')).json();
    const documentId = list.data[0].documentId as string;
    const one = await get(portal.app, `/api/content/topics/${documentId}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data.attributes.slug).toBe('contact');
  });

  it('a document the CMS does not have answers 404 Not_Found', async () => {
    const res = await get(portal.app, '/api/content/topics/zzzzzzzzzzzzzzzzzzzzzzzz');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errorMessage: 'Not_Found' });
  });

  it('a query on an unknown field answers 400 Validation_Failed, never a 500', async () => {
    const res = await get(portal.app, '/api/content/topics?filters[noSuchField][$eq]=1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorMessage: 'Validation_Failed' });
  });

  it('the attack (text on an integer filter, which this Strapi answers with a 500) pauses nothing: ordinary uncached reads answer 200', async () => {
    const attack = Array.from({ length: 16 }, () => get(portal.app, '/api/content/topics?filters[order][$eq]=abc'));
    for (const res of await Promise.all(attack)) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errorMessage: 'Validation_Failed' });
    }
    for (const slug of ['contact', 'privacy', 'accessibility', 'rendering-examples']) {
      const res = await get(
        portal.app,
        `/api/content/topics?filters[slug][$eq]=${slug}&fields[0]=slug&fields[1]=order`,
      );
      expect(res.statusCode, slug).toBe(200);
      expect(res.json().data[0].attributes.slug).toBe(slug);
    }
    for (const [path, query] of [
      ['security-questions', 'sort=order:desc'],
      ['error-messages', 'filters[ErrorCode][$eq]=Not_Found'],
      ['license', 'fields[0]=LicenseText'],
    ]) {
      expect((await get(portal.app, `/api/content/${path}?${query}`)).statusCode, path).toBe(200);
    }
  });

  it('other content types and paths answer 404', async () => {
    for (const path of [
      '/api/content/users',
      '/api/content/upload/files',
      '/api/content/users-permissions/roles',
      '/api/content/topics/a/b',
    ]) {
      const res = await get(portal.app, path);
      expect(res.statusCode, path).toBe(404);
    }
  });

  // The nested forms the allow-list accepts are ones this Strapi answers.
  it.each([
    'populate[featuredTopics][fields][0]=title',
    'populate[featuredTopics][sort]=order:asc',
    'populate[featuredTopics][filters][slug][$eq]=contact',
    'populate[featuredTopics][populate]=*',
    'populate[notices][fields][0]=title',
    'populate[0]=featuredTopics',
    'populate=featuredTopics,notices',
  ])('home-page?%s answers 200', async (query) => {
    const res = await get(portal.app, `/api/content/home-page?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes).toBeDefined();
  });

  // One reason per request; the logged reason proves which rule refused it (nothing reached the CMS).
  it.each([
    ['topics', 'status=draft', 'status is never passed'],
    ['topics', 'locale=en', 'locale is never passed'],
    ['topics', '_q=contact', '_q is never passed'],
    ['topics', 'publicationFilter=never-published-document', 'publicationFilter is never passed'],
    ['topics', 'hasPublishedVersion=false', 'hasPublishedVersion is never passed'],
    ['topics', 'populate[createdBy]=true', 'createdBy is never passed'],
    ['home-page', 'populate[featuredTopics][status]=draft', 'status is never passed'],
    ['home-page', 'populate[featuredTopics][filters][createdBy][firstname]=Ann', 'createdBy is never passed'],
    ['home-page', 'populate[featuredTopics][populate][updatedBy]=true', 'updatedBy is never passed'],
    ['home-page', 'populate[noSuchRelation]=true', 'home-page has no relation noSuchRelation'],
    ['topics', 'filters[slug][$ne]=contact', 'filter $ne is not allowed on slug'],
    ['topics', 'filters[jurisdictions][$containsi]=J5', 'filter $containsi is not allowed on jurisdictions'],
    ['topics', 'filters[publishedAt][$eq]=yesterday', 'publishedAt takes a datetime'],
  ])('%s?%s answers 400 (%s)', async (type, query, reason) => {
    const res = await get(portal.app, `/api/content/${type}?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorMessage: 'Validation_Failed' });
    const logged = portal.logLines.filter((l) => l.includes('content query rejected')).at(-1);
    expect(logged).toContain(reason);
  });

  it('drafts stay hidden on a normal instance, even when the browser asks for preview', async () => {
    for (const q of [
      'filters[slug][$eq]=draft-topic-example',
      'filters[slug][$eq]=draft-topic-example&publicationState=preview',
    ]) {
      const res = await get(portal.app, `/api/content/topics?${q}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
    }
  });

  it('the portal shows a draft only through the link signed for it with the shared webhook secret, uncached', async () => {
    const listed = (await cmsAdmin('GET', '/api/topics?filters[slug][$eq]=draft-topic-example&status=draft')) as {
      data: unknown;
    };
    const documentId = (listed.data as Array<{ documentId: string }>)[0]!.documentId;
    const key = previewKey(readFileSync(join(dataDir, 'cms-webhook-secret'), 'utf8').trim());
    const link = new URL(
      previewPageUrl(portal.config.publicUrl, key, { type: 'topics', documentId, expires: Date.now() + 60_000 }),
    );
    const cachedEntries = portal.app.contentCache.content.size;
    const res = await get(portal.app, `/api/content/preview/topics/${documentId}${link.search}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes).toMatchObject({ slug: 'draft-topic-example', publishedAt: null });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(portal.app.contentCache.content.size).toBe(cachedEntries);
    expect((await get(portal.app, `/api/content/preview/topics/${documentId}`)).statusCode).toBe(404);
  });

  it('If-None-Match with the current ETag answers 304 with no body', async () => {
    const first = await get(portal.app, '/api/content/topics?filters[slug][$eq]=privacy');
    const again = await get(portal.app, {
      url: '/api/content/topics?filters[slug][$eq]=privacy',
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('images referenced by content resolve on our origin through /uploads, with the locked-down CSP', async () => {
    const topic = await get(portal.app, '/api/content/topics?filters[slug][$eq]=rendering-examples&populate=*');
    const home = await get(portal.app, '/api/content/home-page?populate=*');
    const match = /\/uploads\/[A-Za-z0-9._-]+\.(png|jpe?g|gif|webp|svg)/.exec(topic.body + home.body);
    expect(match, 'the seeded content references an image under /uploads/').not.toBeNull();
    const image = await get(portal.app, match![0]);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    expect(image.headers['cache-control']).toBe('public, max-age=86400');
    expect(image.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect((await get(portal.app, '/uploads/no-such-file.png')).statusCode).toBe(404);
  });

  it('the webhook refuses a wrong secret with 401 over real HTTP', async () => {
    const res = await fetch(`${portalUrl}/api/content/webhook`, {
      method: 'POST',
      headers: { 'x-webhook-secret': 'not-the-secret', 'content-type': 'application/json' },
      body: '{"event":"entry.update"}',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ errorMessage: 'Unauthorized' });
  });

  it('an editor publishes a change: the real CMS webhook reaches the portal and the site shows the edit within seconds', async () => {
    expect(adminToken, 'the CMS wrote a test admin token (CMS_TEST_ADMIN_TOKEN_FILE)').toBeTruthy();
    const path = '/api/content/topics?filters[slug][$eq]=contact';
    const before = (await get(portal.app, path)).json().data[0];
    const cachedAgain = await get(portal.app, path);
    expect(cachedAgain.json().data[0].attributes.title).toBe(before.attributes.title);
    const webhooksBefore = portal.logLines.filter((l) => l.includes('CMS webhook: content cache invalidated')).length;

    const newTitle = `Contact us (edited ${Date.now()})`;
    await cmsAdmin('PUT', `/api/topics/${before.documentId}?status=published`, { data: { title: newTitle } });

    // The TTL is 10 minutes here: only the webhook can make the edit visible this soon.
    const shown = await eventually(async () => {
      const title = (await get(portal.app, path)).json().data[0]?.attributes.title as string | undefined;
      return title === newTitle ? title : undefined;
    }, 5000);
    expect(shown).toBe(newTitle);
    expect(portal.logLines.filter((l) => l.includes('CMS webhook: content cache invalidated')).length).toBeGreaterThan(
      webhooksBefore,
    );
  });

  describe("the CMS itself, off Strapi's unsafe defaults", () => {
    it("CORS answers only the editors' origin: a foreign Origin gets no Access-Control-Allow-Origin", async () => {
      const preflight = (origin: string) =>
        fetch(`${cms.url}/admin/login`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
      const evil = await preflight('https://evil.tld');
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
      expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
      // No CMS_PUBLIC_URL in this test: the editors' origin is http://localhost:<CMS_PORT>.
      const editors = await preflight(`http://localhost:${cms.port}`);
      expect(editors.headers.get('access-control-allow-origin')).toBe(`http://localhost:${cms.port}`);
    });

    it('keeps its database file private to its user (0600): it holds token hashes and the webhook secret', () => {
      expect(statSync(cms.databaseFile).mode & 0o777).toBe(0o600);
    });

    it('public sign-up is closed (the permission is not granted: not a 400 validation error)', async () => {
      const res = await fetch(`${cms.url}/api/auth/local/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'mallory', email: 'mallory@example.com', password: 'Mallory-passw0rd' }),
      });
      expect([401, 403, 404]).toContain(res.status);
      // Without a token nothing is readable either (the public role holds no permission at all).
      for (const type of contentTypeNames)
        expect([401, 403], type).toContain((await fetch(`${cms.url}/api/${type}`)).status);
    });

    it('sends no X-Powered-By header', async () => {
      for (const path of ['/api/topics', '/admin/init', '/_health']) {
        const res = await fetch(`${cms.url}${path}`);
        expect(res.headers.get('x-powered-by'), path).toBeNull();
      }
    });

    it('the first administrator comes from CMS_ADMIN_EMAIL/CMS_ADMIN_PASSWORD and can log in', async () => {
      const login = (password: string) =>
        fetch(`${cms.url}/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: ADMIN.email, password }),
        });
      const ok = await login(ADMIN.password);
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { data: { token: string } }).data.token).toEqual(expect.any(String));
      expect((await login('Wrong-passw0rd')).status).toBe(400);
      const init = (await (await fetch(`${cms.url}/admin/init`)).json()) as { data: { hasAdmin: boolean } };
      expect(init.data.hasAdmin).toBe(true);
    });

    it('the portal token reads every portal content type and nothing else (403 on users and upload listings)', async () => {
      const auth = { authorization: `Bearer ${token()}` };
      for (const type of contentTypeNames)
        expect((await fetch(`${cms.url}/api/${type}`, { headers: auth })).status, type).toBe(200);
      for (const path of ['/api/users', '/api/upload/files', '/api/users-permissions/roles']) {
        expect((await fetch(`${cms.url}${path}`, { headers: auth })).status, path).toBe(403);
      }
    });
  });

  describe('with the CMS process killed', () => {
    beforeAll(async () => {
      // Warm entries while the CMS is up, then crash it.
      for (const slug of ['accessibility', 'privacy'])
        expect((await get(portal.app, `/api/content/topics?filters[slug][$eq]=${slug}`)).statusCode).toBe(200);
      await cms.kill();
    });

    it('cached answers keep coming from memory (the CMS is not asked: it is gone)', async () => {
      const res = await get(portal.app, '/api/content/topics?filters[slug][$eq]=accessibility');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-content-stale']).toBeUndefined();
      expect(res.json().data[0].attributes.slug).toBe('accessibility');
    });

    it('after an invalidation the last good copy is served, marked X-Content-Stale: 1', async () => {
      const secret = readFileSync(join(dataDir, 'cms-webhook-secret'), 'utf8').trim();
      const hook = await fetch(`${portalUrl}/api/content/webhook`, {
        method: 'POST',
        headers: { 'x-webhook-secret': secret, 'content-type': 'application/json' },
        body: '{"event":"entry.update","model":"topic"}',
      });
      expect(hook.status).toBe(204);
      const res = await get(portal.app, '/api/content/topics?filters[slug][$eq]=privacy');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-content-stale']).toBe('1');
      expect(res.json().data[0].attributes.slug).toBe('privacy');
    });

    it('an uncached path answers 502 Content_Unavailable, and a preview (never cached) too', async () => {
      const res = await get(portal.app, '/api/content/topics?filters[slug][$eq]=never-cached');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ errorMessage: 'Content_Unavailable' });
      const key = previewKey(readFileSync(join(dataDir, 'cms-webhook-secret'), 'utf8').trim());
      const grant = { type: 'topics', documentId: 'anydocument1', expires: Date.now() + 60_000 } as const;
      const link = new URL(previewPageUrl(portal.config.publicUrl, key, grant));
      const draft = await get(portal.app, `/api/content/preview/topics/anydocument1${link.search}`);
      expect(draft.statusCode).toBe(502);
      expect(portal.logLines.some((l) => l.includes('Content is unavailable'))).toBe(true);
    });

    it('the CMS token never appears in a log line, the failures of a dead CMS included', async () => {
      await get(portal.app, '/api/content/topics?filters[slug][$eq]=also-never-cached');
      await get(portal.app, '/api/content/license?fields[0]=LicenseText');
      expect(portal.logLines.join('\n')).not.toContain(token());
    });
  });
});
