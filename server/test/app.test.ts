import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NpiSchema } from '@portal/contracts/identifiers';
import { buildTestApp, portalHeaders, testConfig } from './helpers';

const baselineHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

describe('portal server platform', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    const config = testConfig();
    // A minimal built SPA so the static serving and the SPA fallback can be checked.
    mkdirSync(join(config.webDistDir, 'assets'), { recursive: true });
    writeFileSync(join(config.webDistDir, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    writeFileSync(join(config.webDistDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(config.webDistDir, 'robots.txt'), 'User-agent: *');
    ctx = await buildTestApp({
      config,
      extraRoutes(app) {
        app.get('/api/test/boom', async () => {
          throw new Error('database password is hunter2');
        });
        app.get('/api/test/plain', async () => ({ ok: true }));
        app.get('/api/test/cached', async (_request, reply) =>
          reply.header('cache-control', 'private, max-age=60').send({ ok: true }),
        );
        app
          .withTypeProvider<ZodTypeProvider>()
          .post('/api/test/echo', { schema: { body: z.object({ npi: NpiSchema }) } }, async (request) => ({
            data: request.body,
          }));
      },
    });
  });
  afterAll(async () => ctx.app.close());

  it('GET /healthz answers 200 while the process runs', async () => {
    const res = await ctx.app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 when the database answers and every migration is applied', async () => {
    const res = await ctx.app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', database: 'up', migrations: 'applied' });
  });

  it('unknown /api paths answer 404 {"errorMessage":"Not_Found"} with the baseline headers', async () => {
    const res = await ctx.app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('{"errorMessage":"Not_Found"}');
    expect(res.headers).toMatchObject(baselineHeaders);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('a malformed URL (bad percent-encoding) answers 400 Validation_Failed with the baseline headers, for pages and API alike', async () => {
    for (const path of ['/api/content/%ZZ', '/topics/%E0%A4%A', '/%']) {
      const res = await ctx.app.inject(path);
      expect(res.statusCode, path).toBe(400);
      expect(res.body, path).toBe('{"errorMessage":"Validation_Failed"}');
      expect(res.headers, path).toMatchObject(baselineHeaders);
      expect(res.headers['x-request-id'], path).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['cache-control'], path).toBe('no-store');
    }
  });

  it('API answers are never cached unless the route sets its own cache-control', async () => {
    const plain = await ctx.app.inject('/api/test/plain');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-store');
    expect(plain.headers).toMatchObject(baselineHeaders);
    const cached = await ctx.app.inject('/api/test/cached');
    expect(cached.headers['cache-control']).toBe('private, max-age=60');
  });

  it('serves the SPA for unknown page paths such as /topics/anything, never cached', async () => {
    for (const path of ['/topics/anything', '/', '/login?next=%2F']) {
      const res = await ctx.app.inject(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    }
  });

  it('caches hashed assets for a year and revalidates other files', async () => {
    const asset = await ctx.app.inject('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const robots = await ctx.app.inject('/robots.txt');
    expect(robots.headers['cache-control']).toBe('no-cache');
    const missing = await ctx.app.inject('/assets/missing-file.js');
    expect(missing.statusCode).toBe(404);
  });

  it('the CSP has no unsafe script source and forbids framing', async () => {
    const csp = (await ctx.app.inject('/')).headers['content-security-policy'] as string;
    const scriptSrc = csp.split(';').find((d) => d.startsWith('script-src'));
    expect(scriptSrc).toBe("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  describe('CSRF check on state-changing /api calls', () => {
    const echo = (headers: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: '/api/test/echo', headers, payload: { npi: '1234567893' } });

    it('rejects a POST without X-Portal-Request: 1', async () => {
      const res = await echo({});
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errorMessage: 'Csrf_Rejected' });
      expect(res.headers).toMatchObject(baselineHeaders);
    });
    it('rejects a wrong header value', async () => {
      expect((await echo({ 'x-portal-request': 'yes' })).statusCode).toBe(403);
    });
    it('rejects a foreign Origin even with the header', async () => {
      const res = await echo({ ...portalHeaders, origin: 'https://evil.example' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errorMessage: 'Csrf_Rejected' });
    });
    it('rejects a cross-site fetch metadata request', async () => {
      expect((await echo({ 'x-portal-request': '1', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    });
    it('lets a same-origin call with the header through', async () => {
      expect((await echo(portalHeaders)).statusCode).toBe(200);
    });
    it('guards the state-changing routes of every plugin, and spares the server-to-server webhook', async () => {
      // The content proxy refuses writes (405), but only after the CSRF check.
      expect((await ctx.app.inject({ method: 'PUT', url: '/api/content/topics', payload: {} })).statusCode).toBe(403);
      // The CMS webhook authenticates with its secret instead.
      expect((await ctx.app.inject({ method: 'POST', url: '/api/content/webhook', payload: {} })).statusCode).toBe(401);
    });
  });

  describe('request ids', () => {
    it('answers a new X-Request-Id on every response', async () => {
      const a = await ctx.app.inject('/healthz');
      const b = await ctx.app.inject('/healthz');
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });
    it('replaces an incoming id unless a trusted proxy sent it (server/test/proxy.test.ts)', async () => {
      const replaced = await ctx.app.inject({ url: '/api/nope', headers: { 'x-request-id': 'lb-req-12345678' } });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('bad input never becomes a 500', () => {
    const post = (payload: string, contentType = 'application/json') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { ...portalHeaders, 'content-type': contentType },
        payload,
      });

    it('a valid body reaches the route', async () => {
      const res = await post('{"npi":"1234567893"}');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { npi: '1234567893' } });
    });
    it('malformed JSON → 400 Invalid_Json', async () => {
      const res = await post('{"npi":');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errorMessage: 'Invalid_Json' });
    });
    it('a schema failure → 400 Validation_Failed with the message next to the field', async () => {
      const res = await post('{"npi":"1234567890"}');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        errorMessage: 'Validation_Failed',
        fieldErrors: { npi: ['This NPI is not valid. Check the 10 digits and try again.'] },
      });
    });
    it('a body over 100 KB → 413 Payload_Too_Large', async () => {
      const res = await post(JSON.stringify({ npi: 'x'.repeat(200 * 1024) }));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ errorMessage: 'Payload_Too_Large' });
    });
    it('a form post → 415 Unsupported_Media_Type', async () => {
      const res = await post('npi=1234567893', 'application/x-www-form-urlencoded');
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ errorMessage: 'Unsupported_Media_Type' });
    });
    it('an unexpected failure answers a generic 500 with the request id, no stack or message', async () => {
      const res = await ctx.app.inject('/api/test/boom');
      expect(res.statusCode).toBe(500);
      const body = res.json();
      expect(body).toEqual({ errorMessage: 'Generic_Error_For_Services', requestId: res.headers['x-request-id'] });
      expect(res.body).not.toContain('hunter2');
      expect(res.headers).toMatchObject(baselineHeaders);
    });
  });

  it('never logs cookies or authorization headers', async () => {
    await ctx.app.inject({
      url: '/api/nope',
      headers: { cookie: 'session=super-secret-cookie', authorization: 'Bearer super-secret-token' },
    });
    const logged = ctx.logLines.join('\n');
    expect(logged).not.toContain('super-secret-cookie');
    expect(logged).not.toContain('super-secret-token');
  });
});
