import { errorDefaultMessages } from '@portal/contracts/errors';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, portalHeaders } from './helpers';

/**
 * Routes that change state without the browser's CSRF header, each authenticated or harmless otherwise. A new
 * exemption must be added here deliberately (and tested); any other state-changing route is checked below.
 */
const CSRF_EXEMPT = [
  // Server-to-server: the CMS authenticates with the shared webhook secret.
  'POST /api/content/webhook',
  // Browsers send CSP violation reports without custom headers; the route only logs (rate limited).
  'POST /api/csp-report',
];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The authority-validation route answers its codes' sentences (docs/requirements/api.md#response-envelope). */
const csrfRejected = (url: string) => ({
  errorMessage: url === REGISTRATION_ROUTES.validateAuthority ? errorDefaultMessages.Csrf_Rejected : 'Csrf_Rejected',
});

describe('CSRF check on every state-changing route (walks the route table)', () => {
  const routes: { method: string; url: string; exempt: boolean }[] = [];
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    ctx = await buildTestApp({
      onRoute(route: RouteOptions) {
        for (const method of [route.method].flat())
          routes.push({ method, url: route.url, exempt: route.config?.csrf === false });
      },
      // A state-changing route outside /api: the check must not depend on the path.
      extraRoutes(app) {
        app.post('/forms/test-submit', async () => ({ ok: true }));
      },
    });
  });
  afterAll(async () => ctx.app.close());

  const stateChanging = () => routes.filter((r) => !SAFE_METHODS.has(r.method));
  /** A concrete URL for a route pattern: parameters and wildcards become plain segments. */
  const concrete = (url: string) => url.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x');

  it('finds the state-changing routes, and exactly the declared exemptions', () => {
    const names = stateChanging().map((r) => `${r.method} ${r.url}`);
    expect(names).toContain('PUT /api/content/*');
    expect(names).toContain('POST /forms/test-submit');
    expect(
      stateChanging()
        .filter((r) => r.exempt)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([...CSRF_EXEMPT].sort());
  });

  it('every other state-changing route refuses a call without X-Portal-Request: 1', async () => {
    for (const route of stateChanging().filter((r) => !r.exempt)) {
      const res = await ctx.app.inject({ method: route.method as 'POST', url: concrete(route.url), payload: {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json(), `${route.method} ${route.url}`).toEqual(csrfRejected(route.url));
    }
  });

  it('every other state-changing route refuses a foreign Origin even with the header', async () => {
    for (const route of stateChanging().filter((r) => !r.exempt)) {
      const res = await ctx.app.inject({
        method: route.method as 'POST',
        url: concrete(route.url),
        headers: { ...portalHeaders, origin: 'https://evil.example' },
        payload: {},
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json(), `${route.method} ${route.url}`).toEqual(csrfRejected(route.url));
    }
  });

  it('a same-origin call with the header passes the check (outside /api too)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/forms/test-submit',
      headers: portalHeaders,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
  });

  it('the exempt routes authenticate or validate on their own', async () => {
    // Without the webhook secret: 401, not a CSRF answer.
    expect((await ctx.app.inject({ method: 'POST', url: '/api/content/webhook', payload: {} })).statusCode).toBe(401);
    // A CSP report is accepted from a browser that sends no custom header.
    const report = await ctx.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({
        'csp-report': { 'document-uri': 'http://localhost:3000/', 'violated-directive': 'script-src' },
      }),
    });
    expect(report.statusCode).toBe(204);
  });
});
