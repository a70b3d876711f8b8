import { ADMIN_ROUTES, adminPath } from '@portal/contracts/paths';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessRequests, userLocations } from '../src/db/schema';
import { buildTestApp, callAs, testClock } from './helpers';
import { createLocation, createPerson, link, requestAccess, sessionOf } from './factories';

/**
 * The administrator rules under two concurrent requests (docs/requirements/staff-accounts.md#people-of-my-locations):
 * exactly one of two racing changes wins. On PGlite the transactions queue on its one connection; with
 * TEST_DATABASE_URL they race on a PostgreSQL pool, where the location's row lock decides.
 */
describe('administrator rules under concurrent requests', () => {
  const clock = testClock();
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now }));
  });
  afterAll(async () => app?.close());

  const administratorsOf = async (locationId: string) =>
    (
      await app.database.db
        .select({ userId: userLocations.userId })
        .from(userLocations)
        .where(and(eq(userLocations.locationId, locationId), eq(userLocations.role, 'administrator')))
    ).map((row) => row.userId);

  it('two "make administrator" at the limit: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const location = await createLocation(app);
      const admins = [];
      for (let i = 0; i < app.config.staff.adminsPerLocationMax - 1; i++) {
        const admin = await createPerson(app);
        await link(app, admin.id, location.id, 'administrator');
        admins.push(admin);
      }
      const [u, v] = [await createPerson(app), await createPerson(app)];
      await link(app, u.id, location.id, 'user');
      await link(app, v.id, location.id, 'user');
      const [first, second] = [await sessionOf(app, clock, admins[0]!.id), await sessionOf(app, clock, admins[1]!.id)];
      const promote = (client: typeof first, userId: string) =>
        callAs(app, client, 'POST', adminPath(ADMIN_ROUTES.setPersonRole, { locationId: location.id, userId }), {
          role: 'administrator',
        });

      const answers = await Promise.all([promote(first, u.id), promote(second, v.id)]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((res) => res.statusCode === 409)!.json().errorMessage).toBe('Admin_Limit_Reached');
      expect(await administratorsOf(location.id)).toHaveLength(app.config.staff.adminsPerLocationMax);
    }
  });

  it('two administrators each removing the other, the last two: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const location = await createLocation(app);
      const [a, b] = [await createPerson(app), await createPerson(app)];
      await link(app, a.id, location.id, 'administrator');
      await link(app, b.id, location.id, 'administrator');
      const [asA, asB] = [await sessionOf(app, clock, a.id), await sessionOf(app, clock, b.id)];
      const remove = (client: typeof asA, userId: string) =>
        callAs(app, client, 'POST', adminPath(ADMIN_ROUTES.removePerson, { locationId: location.id, userId }));

      const answers = await Promise.all([remove(asA, b.id), remove(asB, a.id)]);
      expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
      // The loser was either no longer an administrator (404) or would have left none (409).
      expect([404, 409]).toContain(answers.find((res) => res.statusCode !== 200)!.statusCode);
      expect(await administratorsOf(location.id)).toHaveLength(1);
    }
  });

  it('two administrators each revoking the other, the last two: exactly one wins', async () => {
    const location = await createLocation(app);
    const [a, b] = [await createPerson(app), await createPerson(app)];
    await link(app, a.id, location.id, 'administrator');
    await link(app, b.id, location.id, 'administrator');
    const [asA, asB] = [await sessionOf(app, clock, a.id), await sessionOf(app, clock, b.id)];
    const revoke = (client: typeof asA, userId: string) =>
      callAs(app, client, 'POST', adminPath(ADMIN_ROUTES.setPersonRole, { locationId: location.id, userId }), {
        role: 'user',
      });
    const answers = await Promise.all([revoke(asA, b.id), revoke(asB, a.id)]);
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(await administratorsOf(location.id)).toHaveLength(1);
  });

  it('approve and deny of one request at once: exactly one decision is made', async () => {
    const location = await createLocation(app);
    const [a, b] = [await createPerson(app), await createPerson(app)];
    await link(app, a.id, location.id, 'administrator');
    await link(app, b.id, location.id, 'administrator');
    const asker = await createPerson(app);
    const request = await requestAccess(app, asker.id, location.id);
    const [asA, asB] = [await sessionOf(app, clock, a.id), await sessionOf(app, clock, b.id)];
    const answers = await Promise.all([
      callAs(app, asA, 'POST', adminPath(ADMIN_ROUTES.approveRequest, { requestId: request.id }), { role: 'user' }),
      callAs(app, asB, 'POST', adminPath(ADMIN_ROUTES.denyRequest, { requestId: request.id }), {}),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const [row] = await app.database.db.select().from(accessRequests).where(eq(accessRequests.id, request.id));
    const linked = await app.database.db.select().from(userLocations).where(eq(userLocations.userId, asker.id));
    expect(linked).toHaveLength(row!.status === 'approved' ? 1 : 0);
  });
});
