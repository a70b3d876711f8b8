import { RECERTIFICATIONS_PATH, type DueRecertification } from '@portal/contracts/recertification';
import { AUTH_ROUTES } from '@portal/contracts/paths';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/demo-data';
import { auditEvents } from '../src/db/schema';
import { userByUsername } from '../src/db/users';
import { seedDemoAccounts } from '../src/modules/auth/demo-accounts';
import { RECERTIFICATION_SUSPENSION_JOB } from '../src/modules/recertification/jobs';
import { buildTestApp, callAs, otherSession, testClock, type TestClient } from './helpers';
import { link, linkOf, createLocation, createPerson } from './factories';

const DAY = 24 * 60 * 60 * 1000;

describe('recertification endpoints (docs/requirements/staff-accounts.md#annual-recertification)', () => {
  const clock = testClock();
  let app: FastifyInstance;
  const at = (days: number) => new Date(clock.now().getTime() + days * DAY);
  let harbor: string;
  let other: string;
  const people: Record<string, { id: string; email: string }> = {};
  const clients: Record<string, TestClient> = {};
  let ip = 0;
  const session = async (name: string) => {
    clients[name] = await otherSession(app, clock, people[name]!.id, { ip: `10.9.0.${++ip}` });
    return clients[name]!;
  };

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now }));
    const { db } = app.database;
    harbor = (await createLocation(db, { legalName: 'Harbor Clinic' })).id;
    other = (await createLocation(db, { legalName: 'Other Clinic' })).id;
    for (const name of ['ann.admin', 'bob.admin', 'cy.user', 'dot.user', 'eli.user', 'oz.admin'])
      people[name] = await createPerson(db, { username: name });
    await link(db, people['ann.admin']!.id, harbor, 'administrator', { certifiedUntil: at(300) });
    await link(db, people['bob.admin']!.id, harbor, 'administrator', { certifiedUntil: at(20) });
    await link(db, people['cy.user']!.id, harbor, 'user', { certifiedUntil: at(-1) });
    await link(db, people['dot.user']!.id, harbor, 'user', { certifiedUntil: at(10) });
    await link(db, people['eli.user']!.id, harbor, 'user', { certifiedUntil: at(200) });
    await link(db, people['oz.admin']!.id, other, 'administrator', { certifiedUntil: at(300) });
    await link(db, people['eli.user']!.id, other, 'user', { certifiedUntil: at(5) });
    await app.jobs.runOnce(RECERTIFICATION_SUSPENSION_JOB, { force: true });
  });
  afterAll(() => app.close());

  it('lists the due and overdue links of my locations only, never my own; the session says one is overdue', async () => {
    const ann = await session('ann.admin');
    const res = await callAs(app, ann, 'GET', RECERTIFICATIONS_PATH);
    expect(res.statusCode).toBe(200);
    const links = res.json().data.links as DueRecertification[];
    expect(links.map((l) => [l.username, l.overdue])).toEqual([
      ['cy.user', true],
      ['dot.user', false],
      ['bob.admin', false],
    ]);
    expect(JSON.stringify(links)).not.toContain('Other Clinic');
    expect((await callAs(app, ann, 'GET', AUTH_ROUTES.session)).json().data.recertificationOverdue).toBe(true);

    const oz = await session('oz.admin');
    const ozLinks = (await callAs(app, oz, 'GET', RECERTIFICATIONS_PATH)).json().data.links as DueRecertification[];
    expect(ozLinks.map((l) => l.username)).toEqual(['eli.user']);
    expect((await callAs(app, oz, 'GET', AUTH_ROUTES.session)).json().data.recertificationOverdue).toBe(false);

    // Not an administrator: the admin guard's 404, nothing listed.
    const cy = await session('cy.user');
    expect((await callAs(app, cy, 'GET', RECERTIFICATIONS_PATH)).json()).toEqual({ errorMessage: 'Not_Found' });
  });

  it('refuses a link of another location, my own link and bad input, changing nothing', async () => {
    const ann = await session('ann.admin');
    const before = await linkOf(app.database.db, people['eli.user']!.id, other);
    for (const decisions of [
      [{ userId: people['eli.user']!.id, locationId: other, decision: 'keep' }],
      [
        { userId: people['dot.user']!.id, locationId: harbor, decision: 'keep' },
        { userId: people['ann.admin']!.id, locationId: harbor, decision: 'keep' },
      ],
      [{ userId: people['eli.user']!.id, locationId: harbor, decision: 'keep' }],
    ]) {
      const res = await callAs(app, ann, 'POST', RECERTIFICATIONS_PATH, { decisions });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errorMessage: 'Not_Found' });
    }
    expect(await linkOf(app.database.db, people['eli.user']!.id, other)).toEqual(before);
    expect((await linkOf(app.database.db, people['dot.user']!.id, harbor))!.certifiedUntil).toEqual(at(10));
    for (const body of [
      { decisions: [] },
      { decisions: [{ userId: 'x', locationId: harbor, decision: 'keep' }] },
      {},
    ]) {
      const res = await callAs(app, ann, 'POST', RECERTIFICATIONS_PATH, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorMessage).toBe('Validation_Failed');
    }
  });

  it('keeps and removes in bulk with a recent login, audited; the overdue screen is then done', async () => {
    const ann = await session('ann.admin');
    clock.advance(21 * 60_000);
    const decisions = [
      { userId: people['cy.user']!.id, locationId: harbor, decision: 'keep' },
      { userId: people['dot.user']!.id, locationId: harbor, decision: 'remove' },
      { userId: people['bob.admin']!.id, locationId: harbor, decision: 'keep' },
    ];
    const stale = await callAs(app, ann, 'POST', RECERTIFICATIONS_PATH, { decisions });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({ errorMessage: 'Reauthentication_Required' });

    const fresh = await session('ann.admin');
    const res = await callAs(app, fresh, 'POST', RECERTIFICATIONS_PATH, { decisions });
    expect(res.json()).toEqual({ data: { kept: 2, removed: 1 } });
    const cy = await linkOf(app.database.db, people['cy.user']!.id, harbor);
    expect(cy).toMatchObject({
      status: 'active',
      certifiedBy: people['ann.admin']!.id,
      reminderDaysSent: null,
      certifiedUntil: new Date(clock.now().getTime() + 365 * DAY),
    });
    expect(await linkOf(app.database.db, people['dot.user']!.id, harbor)).toBeUndefined();
    const events = await app.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actor, people['ann.admin']!.id));
    const succeeded = events.filter((e) => e.outcome === 'success');
    expect(succeeded.map((e) => [e.action, e.target]).sort()).toEqual(
      [
        ['recertification.kept', people['bob.admin']!.id],
        ['recertification.kept', people['cy.user']!.id],
        ['recertification.removed', people['dot.user']!.id],
      ].sort(),
    );
    // The refused calls are audited too (the route's action, failure, with the answered code).
    expect(events.filter((e) => e.outcome === 'failure').map((e) => e.details?.reason)).toContain('Not_Found');
    expect((await callAs(app, fresh, 'GET', AUTH_ROUTES.session)).json().data.recertificationOverdue).toBe(false);
    expect((await callAs(app, fresh, 'GET', RECERTIFICATIONS_PATH)).json().data.links).toEqual([]);
  });
});

describe('recertification demo data (README: Demo accounts)', () => {
  it('demo.admin.j5 has a link due in 10 days; demo.admin.recert has one overdue, so the forced screen shows at once', async () => {
    const clock = testClock(Date.now());
    const { app } = await buildTestApp({ clock: clock.now });
    try {
      await seedDemoData(app.database.db, { locations: 20, today: '2026-11-22' });
      await seedDemoAccounts(app.database.db, app.passwordHasher, app.secrets.encryptionKey, clock.now());
      const idOf = async (username: string) => (await userByUsername(app.database.db, username))!.id;

      const j5 = await otherSession(app, clock, await idOf('demo.admin.j5'), { ip: '10.9.1.1' });
      const due = (await callAs(app, j5, 'GET', RECERTIFICATIONS_PATH)).json().data.links as DueRecertification[];
      expect(due.map((l) => [l.username, l.overdue])).toEqual([['demo.user.due', false]]);
      expect(Date.parse(due[0]!.certifiedUntil) - clock.now().getTime()).toBe(10 * DAY);
      expect((await callAs(app, j5, 'GET', AUTH_ROUTES.session)).json().data.recertificationOverdue).toBe(false);

      const recert = await otherSession(app, clock, await idOf('demo.admin.recert'), { ip: '10.9.1.2' });
      expect((await callAs(app, recert, 'GET', AUTH_ROUTES.session)).json().data.recertificationOverdue).toBe(true);
      const overdue = (await callAs(app, recert, 'GET', RECERTIFICATIONS_PATH)).json().data.links;
      expect(overdue).toMatchObject([{ username: 'demo.user.overdue', overdue: true }]);

      // demo.admin.j8 (used by other flows) is not held on the recertification screen.
      const j8 = await otherSession(app, clock, await idOf('demo.admin.j8'), { ip: '10.9.1.3' });
      expect((await callAs(app, j8, 'GET', AUTH_ROUTES.session)).json().data.recertificationOverdue).toBe(false);
    } finally {
      await app.close();
    }
  });
});
