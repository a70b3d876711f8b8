import { ADMIN_ROUTES, adminPath } from '@portal/contracts/paths';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessRequests, auditEvents, userLocations, users } from '../src/db/schema';
import { runAuditedChange } from '../src/modules/admin/service';
import type { DbExecutor } from '../src/platform/db-executor';
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

  /** `runAuditedChange` as a route calls it, for a change written here; answers its audit events after it settled. */
  const change = (target: string, work: (tx: DbExecutor) => Promise<void>) =>
    runAuditedChange(
      { db: app.database.db, jobs: app.jobs, client: { ip: '10.9.9.9', requestId: `race-${target}`, userAgent: '' } },
      { actor: 'system', action: 'admin.person.disable', target },
      async (tx) => {
        await work(tx);
        return { details: { field: 'status' } };
      },
    );
  const successesOf = async (target: string) =>
    (
      await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.target, target), eq(auditEvents.outcome, 'success')))
    ).length;

  it('an account change the database aborts for a conflict runs again whole, never answering 500', async () => {
    const person = await createPerson(app, { firstName: 'Pat' });
    let attempts = 0;
    await change(person.id, async (tx) => {
      attempts++;
      await tx
        .update(users)
        .set({ firstName: `Attempt ${attempts}` })
        .where(eq(users.id, person.id));
      // PostgreSQL's own error for a transaction that met another (as a deadlock's victim gets 40P01).
      if (attempts === 1)
        await tx.execute(sql`do $$ begin raise exception 'conflict' using errcode = 'serialization_failure'; end $$`);
    });
    expect(attempts).toBe(2);
    const [row] = await app.database.db.select().from(users).where(eq(users.id, person.id));
    expect(row!.firstName).toBe('Attempt 2');
    expect(await successesOf(person.id)).toBe(1);
  });

  // Only a server has two transactions at once (PGlite's one connection runs them in turn, so they cannot deadlock).
  it.runIf(inject('postgresTemplate'))(
    'two account changes locking two locations in opposite orders: the deadlock’s victim runs again, both succeed',
    async () => {
      const [first, second] = [await createLocation(app), await createLocation(app)];
      const [a, b] = [await createPerson(app), await createPerson(app)];
      const lock = (tx: DbExecutor, id: string) =>
        tx.execute(sql`select id from provider_locations where id = ${id} for update`);
      // Each holds its first lock before either asks for its second: a lock cycle PostgreSQL breaks by aborting one.
      let holding = 0;
      const bothHolding = () =>
        new Promise<void>((resolve) => {
          const check = () => (holding >= 2 ? resolve() : setTimeout(check, 5));
          check();
        });
      const crosswise = (target: string, one: string, other: string) =>
        change(target, async (tx) => {
          await lock(tx, one);
          holding++;
          await bothHolding();
          await lock(tx, other);
        });
      const results = await Promise.allSettled([
        crosswise(a.id, first.id, second.id),
        crosswise(b.id, second.id, first.id),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      expect([await successesOf(a.id), await successesOf(b.id)]).toEqual([1, 1]);
    },
  );
});
