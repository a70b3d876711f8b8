import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from './helpers';

const PROXY = '10.0.0.5';
const CLIENT = '203.0.113.9';

/** An app behind one load balancer at 10.0.0.5 (TRUST_PROXY lists it); `/test/ip` answers what the server sees. */
describe('trusted proxies and request ids', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    ctx = await buildTestApp({
      config: testConfig({ TRUST_PROXY: '10.0.0.0/29' }),
      extraRoutes(app) {
        app.get('/api/test/ip', async (request) => ({ ip: request.ip, id: request.id }));
      },
    });
  });
  afterAll(async () => ctx.app.close());

  const ipSeenFrom = async (remoteAddress: string, headers: Record<string, string> = {}) =>
    (await ctx.app.inject({ url: '/api/test/ip', remoteAddress, headers })).json().ip;

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    expect(await ipSeenFrom(CLIENT, { 'x-forwarded-for': '198.51.100.1' })).toBe(CLIENT);
  });

  it('takes the client address from X-Forwarded-For when the peer is a trusted proxy', async () => {
    expect(await ipSeenFrom(PROXY, { 'x-forwarded-for': CLIENT })).toBe(CLIENT);
    // A client that prepends its own forged entry gets only as far as the address the proxy saw.
    expect(await ipSeenFrom(PROXY, { 'x-forwarded-for': `198.51.100.1, ${CLIENT}` })).toBe(CLIENT);
  });

  it('keeps a well-formed X-Request-Id from a trusted proxy, and logs it', async () => {
    const res = await ctx.app.inject({
      url: '/api/nope',
      remoteAddress: PROXY,
      headers: { 'x-request-id': 'lb-req.12345_678' },
    });
    expect(res.headers['x-request-id']).toBe('lb-req.12345_678');
    expect(ctx.logLines.some((l) => l.includes('"requestId":"lb-req.12345_678"'))).toBe(true);
  });

  it('replaces an X-Request-Id sent by a client that is not a trusted proxy', async () => {
    const res = await ctx.app.inject({
      url: '/api/nope',
      remoteAddress: CLIENT,
      headers: { 'x-request-id': 'chosen-by-the-client' },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(ctx.logLines.join('\n')).not.toContain('chosen-by-the-client');
  });

  it('replaces a malformed X-Request-Id even from a trusted proxy', async () => {
    for (const id of ['bad id\r\nINJECTED', 'x'.repeat(65), 'a:b', '<script>', '']) {
      const res = await ctx.app.inject({ url: '/api/nope', remoteAddress: PROXY, headers: { 'x-request-id': id } });
      expect(res.headers['x-request-id'], JSON.stringify(id)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('without TRUST_PROXY', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    ctx = await buildTestApp({
      extraRoutes(app) {
        app.get('/api/test/ip', async (request) => ({ ip: request.ip }));
      },
    });
  });
  afterAll(async () => ctx.app.close());

  it('believes neither X-Forwarded-For nor X-Request-Id from anyone', async () => {
    const res = await ctx.app.inject({
      url: '/api/test/ip',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.1', 'x-request-id': 'lb-req-12345678' },
    });
    expect(res.json().ip).toBe('127.0.0.1');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
