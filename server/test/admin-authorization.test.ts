import type { FastifyInstance, RouteOptions } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessRequests, invitations, userLocations, users } from '../src/db/schema';
import { ADMIN_API_PREFIX, type AdminScope } from '../src/identity/admin-guard';
import { buildTestApp, callAs, testClock, type TestClient } from './helpers';
import { createLocation, createPerson, link, requestAccess, sessionOf, queuedEmails } from './factories';

/**
 * "An administrator of location X never sees, counts or changes anything of location Y"
 * (docs/requirements/staff-accounts.md#authorization). The routes come from the server's route table, so a new
 * `/api/admin` route is called here without anyone adding it: each is called by X's administrator with Y's real ids
 * (in the path, the query or the body, wherever its scope reads them) and must answer 403 or 404 with none of Y's data,
 * never 2xx. Nothing of Y may have changed afterwards.
 */
describe('authorization of every /api/admin route (walks the route table)', () => {
  const clock = testClock();
  const routes: { method: string; url: string; scope: AdminScope | undefined }[] = [];
  let app: FastifyInstance;
  let caller: TestClient;
  let ownLocationId: string;
  /** Y's real ids and the data of Y that must never show. */
  let target: { locationId: string; userId: string; requestId: string; invitationId: string; secrets: string[] };

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      clock: clock.now,
      onRoute(route: RouteOptions) {
        for (const method of [route.method].flat())
          if (route.url.startsWith(ADMIN_API_PREFIX) && method !== 'HEAD')
            routes.push({ method, url: route.url, scope: route.config?.adminScope });
      },
    }));
    const x = await createLocation(app, { legalName: 'Xenia Family Practice' });
    const y = await createLocation(app, { legalName: 'Yarrow Orthopedics' });
    const adminX = await createPerson(app);
    await link(app, adminX.id, x.id, 'administrator');
    const adminY = await createPerson(app, { firstName: 'Yolanda', lastName: 'Ysidro' });
    await link(app, adminY.id, y.id, 'administrator');
    const personY = await createPerson(app, {
      firstName: 'Quincy',
      lastName: 'Quarles',
      lockedUntil: new Date(2030, 1),
      mfaEnrolledAt: new Date('2026-01-01T00:00:00Z'),
    });
    await link(app, personY.id, y.id, 'user');
    // In X and Y: X's administrator sees them with their X link only (Y's id and name must not show).
    const shared = await createPerson(app);
    await link(app, shared.id, x.id, 'user');
    await link(app, shared.id, y.id, 'administrator');
    const asker = await createPerson(app, { firstName: 'Rowan', lastName: 'Rask' });
    const request = await requestAccess(app, asker.id, y.id);
    // Y's open invitation (its routes take its id as well as Y's location).
    const [invitation] = await app.database.db
      .insert(invitations)
      .values({
        tokenHash: 'f'.repeat(64),
        locationId: y.id,
        invitedBy: adminY.id,
        email: 'invited.to.yarrow@example.com',
        role: 'user',
        expiresAt: new Date(clock.now().getTime() + 7 * 24 * 60 * 60 * 1000),
      })
      .returning();
    caller = await sessionOf(app, clock, adminX.id);
    ownLocationId = x.id;
    target = {
      locationId: y.id,
      userId: personY.id,
      requestId: request.id,
      invitationId: invitation!.id,
      secrets: [
        invitation!.id,
        'invited.to.yarrow@example.com',
        y.id,
        y.npi,
        y.ptan,
        'Yarrow',
        personY.id,
        personY.username,
        personY.email,
        'Quarles',
        request.id,
        asker.id,
        asker.username,
        'Rask',
        adminY.id,
        adminY.username,
        'Ysidro',
      ],
    };
  });
  afterAll(async () => app?.close());

  /** The route's URL with Y's ids in its parameters, and Y's location in the query. */
  const concrete = (url: string, ids: Record<string, string>) =>
    url.replace(/:(\w+)/g, (_, name: string) => {
      expect(ids[name], `${url}: no id for :${name}`).toBeDefined();
      return ids[name]!;
    });

  const yIds = () => ({
    locationId: target.locationId,
    userId: target.userId,
    requestId: target.requestId,
    invitationId: target.invitationId,
  });

  it('finds the admin routes, each with a scope', () => {
    expect(routes.length).toBeGreaterThanOrEqual(11);
    expect(routes.filter((r) => !r.scope)).toEqual([]);
  });

  it("answers 404 with none of Y's data to X's administrator, on every route, with Y's ids", async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const calls: { url: string; body?: object }[] = [];
      const query = `locationId=${target.locationId}&q=${encodeURIComponent('Quarles')}`;
      calls.push({ url: `${concrete(route.url, yIds())}?${query}`, body: { locationId: target.locationId } });
      // Y's person with the location the caller does administer is refused too.
      if (route.url.includes(':locationId') && route.url.includes(':userId'))
        calls.push({ url: concrete(route.url, { ...yIds(), locationId: ownLocationId }) });
      for (const call of calls) {
        const res = await callAs(app, caller, route.method as 'GET' | 'POST', call.url, call.body);
        const text = res.body;
        if (![403, 404].includes(res.statusCode))
          failures.push(`${route.method} ${call.url}: ${res.statusCode} ${text}`);
        for (const secret of target.secrets)
          if (text.includes(secret)) failures.push(`${route.method} ${call.url}: answer contains ${secret}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("lists only X's own data without a location filter, and counts only it", async () => {
    const lists = routes.filter((r) => r.scope === 'administered' && r.method === 'GET');
    expect(lists.length).toBeGreaterThanOrEqual(2);
    for (const route of lists) {
      const res = await callAs(app, caller, 'GET', route.url);
      expect(res.statusCode, route.url).toBe(200);
      for (const secret of target.secrets) expect(res.body, route.url).not.toContain(secret);
      const data = res.json().data as { total?: number; items?: unknown[] };
      // A paged list counts only what it may show.
      if ('total' in data) expect(data.total, route.url).toBe(data.items?.length);
    }
    for (const q of ['Quarles', 'Rask', 'Ysidro', 'Yarrow', target.userId]) {
      const res = await callAs(app, caller, 'GET', `/api/admin/people?q=${q}`);
      expect(res.json().data, q).toMatchObject({ items: [], total: 0 });
    }
  });

  it('changed nothing of Y', async () => {
    const [request] = await app.database.db
      .select()
      .from(accessRequests)
      .where(eq(accessRequests.id, target.requestId));
    expect(request!.status).toBe('pending');
    const [invitation] = await app.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, target.invitationId));
    expect(invitation!.revokedAt).toBeNull();
    const [person] = await app.database.db.select().from(users).where(eq(users.id, target.userId));
    expect(person).toMatchObject({ status: 'active', mfaEnrolledAt: expect.any(Date) });
    expect(person!.lockedUntil).not.toBeNull();
    const links = await app.database.db
      .select({ role: userLocations.role })
      .from(userLocations)
      .where(and(eq(userLocations.userId, target.userId), eq(userLocations.locationId, target.locationId)));
    expect(links).toEqual([{ role: 'user' }]);
    expect(await queuedEmails(app)).toEqual([]);
  });
});
