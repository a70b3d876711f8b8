import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerLocations, userLocations } from '../src/db/schema';
import type { AdminScope } from '../src/identity/admin-guard';
import { buildTestApp, callAs, testClock, type TestClient } from './helpers';
import { createLocation, createPerson, link, requestAccess, sessionOf } from './factories';

/**
 * The admin guard itself (docs/decisions/0039-admin-guard.md), on probe routes of each scope; the real routes are
 * walked by admin-authorization.test.ts. And the session's `administersLocation`.
 */
describe('admin guard', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let admin: TestClient & { userId: string };
  let x: { id: string };
  let y: { id: string };
  let personX: { id: string };
  let personY: { id: string };
  let requestY: { id: string };
  let requestX: { id: string };

  const probes: [AdminScope, string][] = [
    ['location', '/api/admin/probe/locations/:locationId'],
    ['access-request', '/api/admin/probe/requests/:requestId'],
    ['link', '/api/admin/probe/locations/:locationId/people/:userId'],
    ['person', '/api/admin/probe/people/:userId'],
    ['administered', '/api/admin/probe/list'],
  ];

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      clock: clock.now,
      extraRoutes(app) {
        for (const [scope, url] of probes)
          app.get(url, { config: { adminScope: scope } }, async (request) => ({ data: request.adminGrant }));
        app.post(
          '/api/admin/probe/body',
          { config: { adminScope: 'body-location', audit: { exempt: 'test probe' } } },
          async (request) => ({ data: request.adminGrant }),
        );
      },
    }));
    x = await createLocation(app, { legalName: 'Location X' });
    y = await createLocation(app, { legalName: 'Location Y' });
    const adminX = await createPerson(app);
    await link(app, adminX.id, x.id, 'administrator');
    personX = await createPerson(app);
    await link(app, personX.id, x.id, 'user');
    personY = await createPerson(app);
    await link(app, personY.id, y.id, 'user');
    requestX = await requestAccess(app, (await createPerson(app)).id, x.id);
    requestY = await requestAccess(app, (await createPerson(app)).id, y.id);
    admin = { ...(await sessionOf(app, clock, adminX.id)), userId: adminX.id };
  });
  afterAll(async () => app?.close());

  const get = (url: string, client: TestClient = admin) => callAs(app, client, 'GET', url);

  it('lets an administrator of the location through, with the location it established', async () => {
    const answers = await Promise.all([
      get(`/api/admin/probe/locations/${x.id}`),
      get(`/api/admin/probe/requests/${requestX.id}`),
      get(`/api/admin/probe/locations/${x.id}/people/${personX.id}`),
      get(`/api/admin/probe/people/${personX.id}`),
      get(`/api/admin/probe/list`),
      get(`/api/admin/probe/list?locationId=${x.id}`),
      callAs(app, admin, 'POST', '/api/admin/probe/body', { locationId: x.id }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(answers.map((res) => res.json().data.locationId)).toEqual([x.id, x.id, x.id, null, null, x.id, x.id]);
  });

  it('answers 404 Not_Found with no data for another location, unknown or malformed ids', async () => {
    const answers = await Promise.all([
      get(`/api/admin/probe/locations/${y.id}`),
      get(`/api/admin/probe/locations/${randomUUID()}`),
      get(`/api/admin/probe/locations/not-a-uuid`),
      get(`/api/admin/probe/requests/${requestY.id}`),
      get(`/api/admin/probe/requests/${randomUUID()}`),
      // X's administrator, Y's person: the pair is refused even with X's location id.
      get(`/api/admin/probe/locations/${x.id}/people/${personY.id}`),
      get(`/api/admin/probe/locations/${y.id}/people/${personY.id}`),
      get(`/api/admin/probe/people/${personY.id}`),
      get(`/api/admin/probe/list?locationId=${y.id}`),
      callAs(app, admin, 'POST', '/api/admin/probe/body', { locationId: y.id }),
      callAs(app, admin, 'POST', '/api/admin/probe/body', {}),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errorMessage: 'Not_Found' });
    }
  });

  it('refuses a plain user, a suspended location and a suspended administrator link', async () => {
    const userClient = await sessionOf(app, clock, personX.id);
    expect((await get(`/api/admin/probe/list`, userClient)).statusCode).toBe(404);
    expect((await get(`/api/admin/probe/locations/${x.id}`, userClient)).statusCode).toBe(404);
    expect((await callAs(app, { ip: '10.0.0.9' }, 'GET', `/api/admin/probe/list`)).statusCode).toBe(401);

    const suspendedAt = new Date();
    await app.database.db
      .update(providerLocations)
      .set({ accessSuspendedAt: suspendedAt })
      .where(eq(providerLocations.id, x.id));
    expect((await get(`/api/admin/probe/locations/${x.id}`)).statusCode).toBe(404);
    await app.database.db
      .update(providerLocations)
      .set({ accessSuspendedAt: null })
      .where(eq(providerLocations.id, x.id));
    expect((await get(`/api/admin/probe/locations/${x.id}`)).statusCode).toBe(200);

    const adminLink = and(eq(userLocations.userId, admin.userId), eq(userLocations.locationId, x.id));
    await app.database.db.update(userLocations).set({ status: 'suspended' }).where(adminLink);
    expect((await get(`/api/admin/probe/locations/${x.id}`)).statusCode).toBe(404);
    expect((await get(`/api/admin/probe/list`)).statusCode).toBe(404);
    await app.database.db.update(userLocations).set({ status: 'active' }).where(adminLink);
    expect((await get(`/api/admin/probe/locations/${x.id}`)).statusCode).toBe(200);
  });

  it('tells the session whether the user administers a location', async () => {
    const session = await get('/api/session');
    expect(session.json().data).toMatchObject({ loggedIn: true, administersLocation: true });
    const userClient = await sessionOf(app, clock, personX.id);
    expect((await get('/api/session', userClient)).json().data).toMatchObject({
      loggedIn: true,
      administersLocation: false,
    });
    const anonymous = await callAs(app, { ip: '10.0.0.8' }, 'GET', '/api/session');
    expect(anonymous.json().data).toEqual({ loggedIn: false });
  });

  it('stops the server at startup when an /api/admin route declares no scope', async () => {
    await expect(
      buildTestApp({
        extraRoutes(app) {
          app.get('/api/admin/unguarded', async () => ({ data: 'secret' }));
        },
      }),
    ).rejects.toThrow(/adminScope/);
  });
});
