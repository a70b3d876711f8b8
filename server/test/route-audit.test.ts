import { REQUEST_ID_HEADER } from '@portal/contracts/http';
import { eq } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents } from '../src/db/schema';
import { describeActivity } from '../src/modules/account/service';
import type { RouteAudit } from '../src/identity/route-audit';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, callAs, portalHeaders } from './helpers';
import { createAccount, newIp } from './factories';

/**
 * State-changing routes that write no audit event, each with the reason it gives. A new exemption is added here
 * deliberately; every other POST/PUT/PATCH/DELETE route names its action and is called below.
 */
const AUDIT_EXEMPT = [
  'DELETE /api/content/*',
  'PATCH /api/content/*',
  'POST /api/content/*',
  'PUT /api/content/*',
  'POST /api/content/webhook',
  'POST /api/csp-report',
  'POST /api/invitations/lookup',
  'POST /api/password/generate/get',
  'POST /api/session/extend',
];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

describe('audit declared per route (walks the route table)', () => {
  const routes: { method: string; url: string; audit: RouteAudit | undefined }[] = [];
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let userId: string;

  beforeAll(async () => {
    ctx = await buildTestApp({
      onRoute(route: RouteOptions) {
        for (const method of [route.method].flat())
          if (!SAFE_METHODS.has(method)) routes.push({ method, url: route.url, audit: route.config?.audit });
      },
    });
    userId = (await createAccount(ctx.app, 'route.audit')).id;
  });
  afterAll(async () => ctx.app.close());

  /** A logged-in session of the user that logged in just now (so "recent login" routes let it through). */
  async function loggedIn() {
    const now = ctx.app.clock();
    const cookie = await createSession(ctx.app.database.db, {
      userId,
      stage: 'active',
      now,
      limits: ctx.app.config.sessions,
      authenticatedAt: now,
    });
    return { ip: newIp(), cookie };
  }

  const eventsOf = (requestId: string) =>
    ctx.app.database.db.select().from(auditEvents).where(eq(auditEvents.requestId, requestId));
  /** A concrete URL for a route pattern: parameters and wildcards become plain segments. */
  const concrete = (url: string) => url.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x');

  it('every state-changing route declares an audit action or a reasoned exemption', () => {
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.filter((r) => !r.audit).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
    const exempt = routes.filter((r) => r.audit && 'exempt' in r.audit);
    expect(exempt.map((r) => `${r.method} ${r.url}`).sort()).toEqual([...AUDIT_EXEMPT].sort());
    for (const r of exempt) expect((r.audit as { exempt: string }).exempt.length).toBeGreaterThan(10);
  });

  it("names every declared action in My account's activity, as a success and as a refusal (the gap events)", () => {
    const unnamed = routes
      .flatMap((r) => (r.audit && 'action' in r.audit ? [r.audit.action] : []))
      .flatMap((action) => (['success', 'failure'] as const).map((outcome) => ({ action, outcome })))
      .filter(({ action, outcome }) => describeActivity(action, outcome).startsWith('Account activity'))
      .map(({ action, outcome }) => `${action} ${outcome}`);
    expect(unnamed).toEqual([]);
  });

  it('every audited route writes an event for a call with an empty body, under its request id (never cached)', async () => {
    const silent: string[] = [];
    for (const route of routes.filter((r) => r.audit && 'action' in r.audit)) {
      const res = await callAs(ctx.app, await loggedIn(), route.method as 'POST', concrete(route.url), {});
      const requestId = res.headers[REQUEST_ID_HEADER.toLowerCase()] as string;
      expect(requestId, `${route.method} ${route.url}`).toBeTruthy();
      // No module sets it any more: the platform's baseline covers every /api answer.
      expect(res.headers['cache-control'], `${route.method} ${route.url}`).toBe('no-store');
      const events = await vi
        .waitFor(async () => {
          const rows = await eventsOf(requestId);
          if (!rows.length) throw new Error('no event yet');
          return rows;
        })
        .catch(() => []);
      if (!events.length) silent.push(`${route.method} ${route.url} (${res.statusCode})`);
    }
    expect(silent).toEqual([]);
  }, 120_000);

  it('fills the gap of a call refused before its service ran: the action, the user, the error code', async () => {
    const res = await callAs(ctx.app, await loggedIn(), 'POST', '/api/account/phone', { phone: 'not a phone' });
    expect(res.statusCode).toBe(400);
    const requestId = res.headers[REQUEST_ID_HEADER.toLowerCase()] as string;
    await vi.waitFor(async () =>
      expect(await eventsOf(requestId)).toEqual([
        expect.objectContaining({
          actor: userId,
          action: 'phone.changed',
          outcome: 'failure',
          details: { reason: 'Validation_Failed' },
        }),
      ]),
    );
  });

  it('records a refusal by the CSRF check too, without a session', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: newIp(),
      headers: { ...portalHeaders, origin: 'https://evil.example' },
      payload: { username: 'route.audit', password: 'x' },
    });
    expect(res.statusCode).toBe(403);
    const requestId = res.headers[REQUEST_ID_HEADER.toLowerCase()] as string;
    await vi.waitFor(async () =>
      expect(await eventsOf(requestId)).toEqual([
        expect.objectContaining({
          actor: null,
          action: 'login.password',
          outcome: 'failure',
          details: { reason: 'Csrf_Rejected' },
        }),
      ]),
    );
  });

  it('adds nothing when the service wrote its own event', async () => {
    const res = await callAs(ctx.app, { ip: newIp() }, 'POST', '/api/auth/login', {
      username: 'nobody.here',
      password: 'wrong password entirely',
    });
    expect(res.statusCode).toBe(401);
    const requestId = res.headers[REQUEST_ID_HEADER.toLowerCase()] as string;
    // Give a (wrong) gap event the time to be written before counting.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await eventsOf(requestId)).map((e) => e.action)).toEqual(['login.failed']);
  });
});
