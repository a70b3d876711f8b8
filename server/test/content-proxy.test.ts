import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from './helpers';
import { freePort, startStrapi, type RunningStrapi } from './support/strapi';

/**
 * The content proxy against the REAL Strapi (cms/scripts/start-headless.mjs on a throw-away SQLite file): no
 * mock. One CMS for this file; the last tests kill it to check the failure policy.
 */

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

const dataDir = mkdtempSync(join(tmpdir(), 'portal-content-it-'));
let cms: RunningStrapi;
let portal: Ctx;
let preview: Ctx;
let portalUrl: string;
/** Every answer the tests saw, to prove the CMS token never reached a browser. */
const seen: LightMyRequestResponse[] = [];
let adminToken: string | undefined;

async function get(app: Ctx['app'], options: string | InjectOptions) {
  const res = await app.inject(options);
  seen.push(res);
  return res;
}

const token = () => readFileSync(join(dataDir, 'cms-api-token'), 'utf8').trim();

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
  const common = { DATA_DIR: dataDir, CMS_URL: `http://127.0.0.1:${cmsPort}`, CONTENT_CACHE_TTL_MS: '600000', CONTENT_TIMEOUT_MS: '5000' };
  // The portal starts first (it creates the webhook secret file the CMS then reads) and listens on a real port
  // so the real Strapi webhook can reach it.
  portal = await buildTestApp({ config: testConfig({ ...common, PUBLIC_URL: `http://localhost:${portalPort}` }) });
  await portal.app.listen({ host: '127.0.0.1', port: portalPort });
  portalUrl = `http://127.0.0.1:${portalPort}`;
  preview = await buildTestApp({ config: testConfig({ ...common, CONTENT_PREVIEW: 'true' }) });
  const adminTokenFile = join(dataDir, 'test-admin-token');
  cms = await startStrapi({
    portalDataDir: dataDir,
    port: cmsPort,
    webhookUrl: `${portalUrl}/api/content/webhook`,
    env: { CMS_TEST_ADMIN_TOKEN_FILE: adminTokenFile },
  });
  console.log(`[content-proxy] real Strapi ready in ${cms.startupMs} ms`);
  if (existsSync(adminTokenFile)) adminToken = readFileSync(adminTokenFile, 'utf8').trim();
}, 240_000);

afterAll(async () => {
  await cms?.stop();
  await portal?.app.close();
  await preview?.app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('content proxy against the real Strapi', () => {
  it('the CMS handed over its token through the data folder, and the portal answers the v4 shape (data.attributes)', async () => {
    expect(token().length).toBeGreaterThan(20);
    const res = await get(portal.app, '/api/content/topics?filters[slug][$eq]=rendering-examples&populate=*');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ id: expect.any(Number), documentId: expect.any(String), attributes: { slug: 'rendering-examples', title: expect.any(String), publishedAt: expect.any(String) } });
    expect(body.data[0].title).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toMatch(/^"/);
  });

  it('serves each allowed type: license, error messages by code, security questions, home page, one topic by documentId', async () => {
    const license = await get(portal.app, '/api/content/license?populate=*');
    expect(license.statusCode).toBe(200);
    expect(license.json().data.attributes.LicenseText).toEqual(expect.any(String));

    const message = await get(portal.app, '/api/content/error-messages/?filters[ErrorCode][$eq]=Content_Unavailable');
    expect(message.statusCode).toBe(200);
    expect(message.json().data[0].attributes).toMatchObject({ ErrorCode: 'Content_Unavailable', Message: expect.any(String) });

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

  it('a query the CMS refuses (unknown field) answers 400 Validation_Failed, never a 500', async () => {
    const res = await get(portal.app, '/api/content/topics?filters[noSuchField][$eq]=1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorMessage: 'Validation_Failed' });
  });

  it('the allow-list holds: other types 404, other parameters 400', async () => {
    for (const path of ['/api/content/users', '/api/content/upload/files', '/api/content/users-permissions/roles', '/api/content/topics/a/b']) {
      const res = await get(portal.app, path);
      expect(res.statusCode, path).toBe(404);
    }
    for (const query of ['status=draft', 'filters[slug][$ne]=contact', 'populate[createdBy]=true&x=1', 'locale=*']) {
      const res = await get(portal.app, `/api/content/topics?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ errorMessage: 'Validation_Failed' });
    }
  });

  it('drafts stay hidden on a normal instance, even when the browser asks for preview', async () => {
    for (const q of ['filters[slug][$eq]=draft-topic-example', 'filters[slug][$eq]=draft-topic-example&publicationState=preview']) {
      const res = await get(portal.app, `/api/content/topics?${q}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
    }
  });

  it('a preview instance (CONTENT_PREVIEW=true) shows drafts for publicationState=preview, uncached', async () => {
    const res = await get(preview.app, '/api/content/topics?filters[slug][$eq]=draft-topic-example&publicationState=preview');
    expect(res.statusCode).toBe(200);
    const [draft] = res.json().data;
    expect(draft.attributes).toMatchObject({ slug: 'draft-topic-example', publishedAt: null });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(preview.app.contentCache.content.size).toBe(0);
    // Without the parameter, the preview instance still serves published content only.
    expect((await get(preview.app, '/api/content/topics?filters[slug][$eq]=draft-topic-example')).json().data).toEqual([]);
  });

  it('If-None-Match with the current ETag answers 304 with no body', async () => {
    const first = await get(portal.app, '/api/content/topics?filters[slug][$eq]=privacy');
    const again = await get(portal.app, { url: '/api/content/topics?filters[slug][$eq]=privacy', headers: { 'if-none-match': first.headers.etag as string } });
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
    const res = await fetch(`${portalUrl}/api/content/webhook`, { method: 'POST', headers: { 'x-webhook-secret': 'not-the-secret', 'content-type': 'application/json' }, body: '{"event":"entry.update"}' });
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
    expect(portal.logLines.filter((l) => l.includes('CMS webhook: content cache invalidated')).length).toBeGreaterThan(webhooksBefore);
  });

  describe('with the CMS process killed', () => {
    beforeAll(async () => {
      // Warm entries while the CMS is up, then crash it.
      for (const slug of ['accessibility', 'privacy']) expect((await get(portal.app, `/api/content/topics?filters[slug][$eq]=${slug}`)).statusCode).toBe(200);
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
      const hook = await fetch(`${portalUrl}/api/content/webhook`, { method: 'POST', headers: { 'x-webhook-secret': secret, 'content-type': 'application/json' }, body: '{"event":"entry.update","model":"topic"}' });
      expect(hook.status).toBe(204);
      const res = await get(portal.app, '/api/content/topics?filters[slug][$eq]=privacy');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-content-stale']).toBe('1');
      expect(res.json().data[0].attributes.slug).toBe('privacy');
    });

    it('an uncached path answers 502 Content_Unavailable, and preview (never cached) too', async () => {
      const res = await get(portal.app, '/api/content/topics?filters[slug][$eq]=never-cached');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ errorMessage: 'Content_Unavailable' });
      const draft = await get(preview.app, '/api/content/topics?filters[slug][$eq]=draft-topic-example&publicationState=preview');
      expect(draft.statusCode).toBe(502);
      expect(portal.logLines.some((l) => l.includes('CMS request failed'))).toBe(true);
    });

    it('the CMS token never appeared in any answer body, header or log line', () => {
      const secret = token();
      expect(seen.length).toBeGreaterThan(20);
      for (const res of seen) {
        expect(res.body).not.toContain(secret);
        expect(JSON.stringify(res.headers)).not.toContain(secret);
      }
      expect([...portal.logLines, ...preview.logLines].join('\n')).not.toContain(secret);
    });
  });
});
