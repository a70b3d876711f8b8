import { ACCOUNT_ROUTES } from '@portal/contracts/account';
import { ADMIN_ROUTES, adminPath } from '@portal/contracts/paths';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  accessRequests,
  auditEvents,
  mfaRecoveryCodes,
  passkeys,
  sessions,
  userLocations,
  users,
} from '../src/db/schema';
import { inactivityDisableJob } from '../src/modules/login-help/inactivity-job';
import { buildTestApp, callAs, testClock, testConfig, type TestClient } from './helpers';
import {
  createLocation,
  createPerson,
  link,
  requestAccess,
  sessionOf,
  staleSessionOf,
  queuedEmails,
} from './factories';

/**
 * The administrator's API end to end (docs/requirements/staff-accounts.md#the-administrators-console): the requests
 * list and decisions, the people search and detail, and each action with its rules, audit, email and the person's own
 * activity. Cross-location refusals of every route: admin-authorization.test.ts; races: admin-concurrency.test.ts.
 */
describe('administrator API', () => {
  const clock = testClock();
  let app: FastifyInstance;
  const DAY_MS = 24 * 60 * 60 * 1000;

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now, config: testConfig({ ADMINS_PER_LOCATION_MAX: '3' }) }));
  });
  afterAll(async () => app?.close());

  /** A location X with its administrator (the caller) and a location Y with another administrator. */
  async function twoLocations() {
    const x = await createLocation(app, { legalName: 'Harbor Clinic X' });
    const y = await createLocation(app, { legalName: 'Yonder Clinic Y' });
    const adminX = await createPerson(app, { firstName: 'Alex', lastName: 'Admin' });
    await link(app, adminX.id, x.id, 'administrator');
    const adminY = await createPerson(app);
    await link(app, adminY.id, y.id, 'administrator');
    return { x, y, adminX, adminY, caller: await sessionOf(app, clock, adminX.id) };
  }

  const emailsTo = (to: string, template: string) => queuedEmails(app, { to, template });
  const activityOf = async (client: TestClient) =>
    (await callAs(app, client, 'GET', ACCOUNT_ROUTES.activity))
      .json()
      .data.items.map((item: { description: string }) => item.description);

  describe('requests', () => {
    it('lists the pending requests of my locations only, with who asked, for what and when', async () => {
      const { x, y, caller } = await twoLocations();
      const asker = await createPerson(app, { firstName: 'Robin', lastName: 'Requester' });
      const mine = await requestAccess(app, asker.id, x.id);
      await requestAccess(app, asker.id, y.id);
      // An account that has not verified its email yet has not finished registering: not shown.
      const unverified = await createPerson(app, { status: 'pending' });
      await requestAccess(app, unverified.id, x.id);

      const res = await callAs(app, caller, 'GET', ADMIN_ROUTES.requests);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        items: [
          {
            requestId: mine.id,
            userId: asker.id,
            name: 'Robin Requester',
            username: asker.username,
            email: asker.email,
            locationId: x.id,
            legalName: 'Harbor Clinic X',
            npi: x.npi,
            ptan: x.ptan,
            requestedAt: mine.createdAt.toISOString(),
          },
        ],
        page: 1,
        pageSize: 25,
        total: 1,
        hasMore: false,
      });
      const filtered = await callAs(app, caller, 'GET', `${ADMIN_ROUTES.requests}?locationId=${x.id}&page=2`);
      expect(filtered.json().data).toMatchObject({ items: [], page: 2, total: 1, hasMore: false });
      expect((await callAs(app, caller, 'GET', `${ADMIN_ROUTES.requests}?page=0`)).statusCode).toBe(400);
    });

    it('approves with a role: a certified link, the request decided, the requester emailed and shown it', async () => {
      const { x, adminX, caller } = await twoLocations();
      const asker = await createPerson(app);
      const request = await requestAccess(app, asker.id, x.id);
      const url = adminPath(ADMIN_ROUTES.approveRequest, { requestId: request.id });

      const res = await callAs(app, caller, 'POST', url, { role: 'user' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { requestId: request.id, status: 'approved' } });
      const [linkRow] = await app.database.db
        .select()
        .from(userLocations)
        .where(and(eq(userLocations.userId, asker.id), eq(userLocations.locationId, x.id)));
      expect(linkRow).toMatchObject({ role: 'user', status: 'active', certifiedBy: adminX.id });
      expect(linkRow!.certifiedUntil.getTime()).toBe(clock.now().getTime() + 365 * DAY_MS);
      const [decided] = await app.database.db.select().from(accessRequests).where(eq(accessRequests.id, request.id));
      expect(decided).toMatchObject({ status: 'approved', role: 'user', decidedBy: adminX.id });
      const [email] = await emailsTo(asker.email, 'access-request-decided');
      expect(email!.data).toMatchObject({ decision: 'approved', legalName: 'Harbor Clinic X', role: 'user' });
      expect(await activityOf(await sessionOf(app, clock, asker.id))).toContain(
        'Access request approved by a location administrator',
      );

      // Decided once: a second decision is refused, and changes nothing.
      const again = await callAs(app, caller, 'POST', url, { role: 'administrator' });
      expect(again.statusCode).toBe(409);
      expect(again.json().errorMessage).toBe('Access_Request_Not_Pending');
      const deny = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.denyRequest, { requestId: request.id }));
      expect(deny.json().errorMessage).toBe('Access_Request_Not_Pending');
      expect(await emailsTo(asker.email, 'access-request-decided')).toHaveLength(1);
    });

    it('denies with an optional reason, emailed; a withdrawn request cannot be decided', async () => {
      const { x, caller } = await twoLocations();
      const asker = await createPerson(app);
      const request = await requestAccess(app, asker.id, x.id);
      const res = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.denyRequest, { requestId: request.id }), {
        reason: '  Not one of our staff.  ',
      });
      expect(res.json()).toEqual({ data: { requestId: request.id, status: 'denied' } });
      const [decided] = await app.database.db.select().from(accessRequests).where(eq(accessRequests.id, request.id));
      expect(decided).toMatchObject({ status: 'denied', reason: 'Not one of our staff.', role: null });
      const [email] = await emailsTo(asker.email, 'access-request-decided');
      expect(email!.data).toMatchObject({ decision: 'denied', reason: 'Not one of our staff.' });
      expect(
        await app.database.db
          .select()
          .from(userLocations)
          .where(and(eq(userLocations.userId, asker.id), eq(userLocations.locationId, x.id))),
      ).toEqual([]);

      const withdrawn = await requestAccess(app, (await createPerson(app)).id, x.id);
      await app.database.db
        .update(accessRequests)
        .set({ status: 'withdrawn' })
        .where(eq(accessRequests.id, withdrawn.id));
      const late = await callAs(
        app,
        caller,
        'POST',
        adminPath(ADMIN_ROUTES.approveRequest, { requestId: withdrawn.id }),
        {
          role: 'user',
        },
      );
      expect(late.statusCode).toBe(409);
      expect(late.json().errorMessage).toBe('Access_Request_Not_Pending');
      const bad = await callAs(
        app,
        caller,
        'POST',
        adminPath(ADMIN_ROUTES.approveRequest, { requestId: withdrawn.id }),
        {
          role: 'owner',
        },
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errorMessage).toBe('Validation_Failed');
    });

    it('decides nothing for an account whose email is not verified yet, even by an id sent directly', async () => {
      const { x, adminX, caller } = await twoLocations();
      const unverified = await createPerson(app, { status: 'pending' });
      const request = await requestAccess(app, unverified.id, x.id);
      for (const [path, body] of [
        [ADMIN_ROUTES.approveRequest, { role: 'user' }],
        [ADMIN_ROUTES.denyRequest, {}],
      ] as const) {
        const res = await callAs(app, caller, 'POST', adminPath(path, { requestId: request.id }), body);
        expect(res.statusCode, path).toBe(400);
        expect(res.json(), path).toEqual({ errorMessage: 'Access_Request_Unverified' });
      }
      const [still] = await app.database.db.select().from(accessRequests).where(eq(accessRequests.id, request.id));
      expect(still).toMatchObject({ status: 'pending', decidedBy: null });
      expect(await app.database.db.select().from(userLocations).where(eq(userLocations.userId, unverified.id))).toEqual(
        [],
      );
      expect(await emailsTo(unverified.email, 'access-request-decided')).toEqual([]);
      const refusals = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.actor, adminX.id), eq(auditEvents.target, unverified.id)))
        .orderBy(auditEvents.id);
      expect(refusals.map((e) => [e.action, e.outcome, e.details])).toEqual([
        ['admin.request.approve', 'failure', { reason: 'email_unverified' }],
        ['admin.request.deny', 'failure', { reason: 'email_unverified' }],
      ]);
    });

    it('approving an administrator beyond the limit is refused', async () => {
      const { x, caller } = await twoLocations();
      for (let i = 0; i < 2; i++) await link(app, (await createPerson(app)).id, x.id, 'administrator');
      const request = await requestAccess(app, (await createPerson(app)).id, x.id);
      const url = adminPath(ADMIN_ROUTES.approveRequest, { requestId: request.id });
      const res = await callAs(app, caller, 'POST', url, { role: 'administrator' });
      expect(res.statusCode).toBe(409);
      expect(res.json().errorMessage).toBe('Admin_Limit_Reached');
      expect((await callAs(app, caller, 'POST', url, { role: 'user' })).statusCode).toBe(200);
    });

    it('asks for the password again when the login is older than 20 minutes', async () => {
      const { x, adminX } = await twoLocations();
      const request = await requestAccess(app, (await createPerson(app)).id, x.id);
      const stale = await staleSessionOf(app, clock, adminX.id, 21);
      const res = await callAs(app, stale, 'POST', adminPath(ADMIN_ROUTES.approveRequest, { requestId: request.id }), {
        role: 'user',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().errorMessage).toBe('Reauthentication_Required');
      // Reading needs no fresh login.
      expect((await callAs(app, stale, 'GET', ADMIN_ROUTES.requests)).json().data.total).toBe(1);
    });
  });

  describe('people', () => {
    it('finds people of my locations by name, username or email in any case, with only my links', async () => {
      const { x, y, caller } = await twoLocations();
      const both = await createPerson(app, {
        username: `Shared.${Date.now()}`,
        firstName: 'Sam',
        lastName: 'Zebulon',
        mfaEnrolledAt: new Date('2026-01-01T00:00:00Z'),
      });
      await link(app, both.id, x.id, 'user');
      await link(app, both.id, y.id, 'administrator');
      const onlyY = await createPerson(app, { firstName: 'Sam', lastName: 'Zebulonian' });
      await link(app, onlyY.id, y.id, 'user');

      for (const q of ['sam zeb', 'SHARED.', both.email.toUpperCase()]) {
        const res = await callAs(app, caller, 'GET', `${ADMIN_ROUTES.people}?q=${encodeURIComponent(q)}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toMatchObject({ total: 1, page: 1, hasMore: false });
        expect(res.json().data.items).toEqual([
          {
            userId: both.id,
            name: 'Sam Zebulon',
            username: both.username,
            email: both.email,
            status: 'active',
            lastLoginAt: null,
            mfaEnrolled: true,
            unlockNeedsHelpDesk: false,
            locations: [
              {
                locationId: x.id,
                legalName: 'Harbor Clinic X',
                npi: x.npi,
                role: 'user',
                certifiedUntil: expect.any(String),
                status: 'active',
              },
            ],
            // Also of Y, which the caller does not administer: only "remove from my location" is theirs.
            accountActions: false,
            self: false,
          },
        ]);
      }
      // Without a search: the two people of X (the caller and the shared person), counted as two.
      const all = await callAs(app, caller, 'GET', ADMIN_ROUTES.people);
      expect(all.json().data.total).toBe(2);
      expect(JSON.stringify(all.json())).not.toContain(y.id);
      // `%` and `_` are taken literally.
      expect((await callAs(app, caller, 'GET', `${ADMIN_ROUTES.people}?q=%25`)).json().data.total).toBe(0);

      const detail = await callAs(app, caller, 'GET', adminPath(ADMIN_ROUTES.person, { userId: both.id }));
      expect(detail.json().data).toMatchObject({ userId: both.id, locked: false, passkeyCount: 0 });
      expect(detail.json().data.locations.map((l: { locationId: string }) => l.locationId)).toEqual([x.id]);
      const hidden = await callAs(app, caller, 'GET', adminPath(ADMIN_ROUTES.person, { userId: onlyY.id }));
      expect(hidden.statusCode).toBe(404);
    });

    it('makes and revokes administrators within the limit, never leaving a location without one', async () => {
      const { x, adminX, caller } = await twoLocations();
      const [p1, p2] = [await createPerson(app), await createPerson(app)];
      await link(app, p1.id, x.id, 'user');
      await link(app, p2.id, x.id, 'user');
      const role = (userId: string, value: string, client = caller) =>
        callAs(app, client, 'POST', adminPath(ADMIN_ROUTES.setPersonRole, { locationId: x.id, userId }), {
          role: value,
        });

      // Revoking the only administrator (the caller) is refused, as is leaving.
      expect((await role(adminX.id, 'user')).json().errorMessage).toBe('Last_Administrator');
      const leave = adminPath(ADMIN_ROUTES.removePerson, { locationId: x.id, userId: adminX.id });
      expect((await callAs(app, caller, 'POST', leave)).json().errorMessage).toBe('Last_Administrator');

      const made = await role(p1.id, 'administrator');
      expect(made.statusCode).toBe(200);
      expect(made.json().data.person.locations[0].role).toBe('administrator');
      expect((await role(p2.id, 'administrator')).statusCode).toBe(200);
      // ADMINS_PER_LOCATION_MAX is 3 in this file.
      const third = await createPerson(app);
      await link(app, third.id, x.id, 'user');
      const over = await role(third.id, 'administrator');
      expect(over.statusCode).toBe(409);
      expect(over.json().errorMessage).toBe('Admin_Limit_Reached');

      // With others in place, the caller may step down (and p1 then revoke them back).
      expect((await role(adminX.id, 'user')).statusCode).toBe(200);
      expect((await callAs(app, caller, 'GET', ADMIN_ROUTES.people)).statusCode).toBe(404);
      expect(await activityOf(await sessionOf(app, clock, p1.id))).toContain(
        'Role at a provider location changed by a location administrator',
      );
      const [event] = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'admin.person.role'), eq(auditEvents.target, p1.id)));
      expect(event).toMatchObject({ actor: adminX.id, outcome: 'success' });
    });

    it('removes a person from a location; they are out of my view', async () => {
      const { x, caller } = await twoLocations();
      const person = await createPerson(app);
      await link(app, person.id, x.id, 'user');
      const res = await callAs(
        app,
        caller,
        'POST',
        adminPath(ADMIN_ROUTES.removePerson, { locationId: x.id, userId: person.id }),
      );
      expect(res.json()).toEqual({ data: { person: null } });
      expect(await app.database.db.select().from(userLocations).where(eq(userLocations.userId, person.id))).toEqual([]);
      expect(await activityOf(await sessionOf(app, clock, person.id))).toContain(
        'Removed from a provider location by a location administrator',
      );
    });

    it('disables (sessions end at once) and enables again, lifting a disabling for inactivity too', async () => {
      const { x, caller } = await twoLocations();
      const person = await createPerson(app);
      await link(app, person.id, x.id, 'user');
      const theirs = await sessionOf(app, clock, person.id);
      const other = await sessionOf(app, clock, person.id);
      expect((await callAs(app, theirs, 'GET', '/api/session')).json().data.loggedIn).toBe(true);

      const disabled = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.disablePerson, { userId: person.id }));
      expect(disabled.statusCode).toBe(200);
      expect(disabled.json().data.person.status).toBe('disabled_admin');
      expect(await app.database.db.select().from(sessions).where(eq(sessions.userId, person.id))).toEqual([]);
      expect((await callAs(app, other, 'GET', '/api/session')).json().data.loggedIn).toBe(false);
      expect(await emailsTo(person.email, 'account-changed-by-admin')).toHaveLength(1);

      const enabled = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.enablePerson, { userId: person.id }));
      expect(enabled.json().data.person.status).toBe('active');
      const [row] = await app.database.db.select().from(users).where(eq(users.id, person.id));
      expect(row!.reenabledAt?.getTime()).toBe(clock.now().getTime());

      await app.database.db.update(users).set({ status: 'disabled_inactive' }).where(eq(users.id, person.id));
      const again = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.enablePerson, { userId: person.id }));
      expect(again.json().data.person.status).toBe('active');
      const activity = await activityOf(await sessionOf(app, clock, person.id));
      expect(activity).toContain('Account disabled by a location administrator');
      expect(activity).toContain('Account enabled again by a location administrator');
    });

    it('an account enabled again is not disabled again by the next inactivity run', async () => {
      const { x, caller } = await twoLocations();
      const longAgo = new Date(clock.now().getTime() - 400 * DAY_MS);
      const person = await createPerson(app, {
        status: 'disabled_inactive',
        lastLoginAt: longAgo,
        passwordChangedAt: longAgo,
        createdAt: longAgo,
      });
      await link(app, person.id, x.id, 'user');
      await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.enablePerson, { userId: person.id }));
      clock.advance(3600_000);
      const job = inactivityDisableJob({ days: app.config.loginHelp.inactivityDisableDays, now: clock.now });
      await app.database.db.transaction(async (tx) => void (await job.run(tx)));
      const [row] = await app.database.db.select().from(users).where(eq(users.id, person.id));
      expect(row!.status).toBe('active');
    });

    it('unlocks a locked account', async () => {
      const { x, caller } = await twoLocations();
      const person = await createPerson(app, {
        lockedUntil: new Date(clock.now().getTime() + 3600_000),
        failedLoginCount: 3,
        mfaFailedCount: 4,
      });
      await link(app, person.id, x.id, 'user');
      const detail = await callAs(app, caller, 'GET', adminPath(ADMIN_ROUTES.person, { userId: person.id }));
      expect(detail.json().data).toMatchObject({ status: 'locked', locked: true });
      const res = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.unlockPerson, { userId: person.id }));
      expect(res.json().data.person).toMatchObject({ status: 'active', locked: false });
      const [row] = await app.database.db.select().from(users).where(eq(users.id, person.id));
      expect(row).toMatchObject({ lockedUntil: null, failedLoginCount: 0, mfaFailedCount: 0 });
      // The owner is emailed at the unlock.
      expect((await emailsTo(person.email, 'account-changed-by-admin')).map((e) => e.data.change)).toEqual([
        'unlocked',
      ]);
    });

    it('past the daily ceiling of wrong passwords only the help desk unlocks: no Unlock offered, 409 with a code', async () => {
      const { x, adminX, caller } = await twoLocations();
      const person = await createPerson(app, { status: 'locked' });
      await link(app, person.id, x.id, 'user');
      // The ceiling's wrong passwords of the last 24 hours, as the login audits them (one older than a day).
      const at = (hoursAgo: number) => new Date(clock.now().getTime() - hoursAgo * 3600_000);
      const failure = (hoursAgo: number) => ({
        at: at(hoursAgo),
        action: 'login.failed',
        target: person.id,
        outcome: 'failure' as const,
        details: { reason: 'wrong_password', count: 1 },
      });
      const ceiling = app.config.login.dailyFailureCeiling;
      await app.database.db
        .insert(auditEvents)
        .values([failure(25), ...Array.from({ length: ceiling - 1 }, (_, i) => failure(1 + i / 100))]);
      const url = adminPath(ADMIN_ROUTES.person, { userId: person.id });
      expect((await callAs(app, caller, 'GET', url)).json().data).toMatchObject({ unlockNeedsHelpDesk: false });
      await app.database.db.insert(auditEvents).values(failure(0.5));
      expect((await callAs(app, caller, 'GET', url)).json().data).toMatchObject({
        status: 'locked',
        unlockNeedsHelpDesk: true,
      });
      const list = await callAs(app, caller, 'GET', `${ADMIN_ROUTES.people}?q=${encodeURIComponent(person.username)}`);
      expect(list.json().data.items).toMatchObject([{ unlockNeedsHelpDesk: true }]);
      const res = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.unlockPerson, { userId: person.id }));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ errorMessage: 'Unlock_Needs_Help_Desk' });
      const [row] = await app.database.db.select().from(users).where(eq(users.id, person.id));
      expect(row!.status).toBe('locked');
      expect(await emailsTo(person.email, 'account-changed-by-admin')).toEqual([]);
      // A day later the failures have aged out: an administrator may unlock again.
      clock.advance(DAY_MS);
      const fresh = await sessionOf(app, clock, adminX.id);
      const later = await callAs(app, fresh, 'POST', adminPath(ADMIN_ROUTES.unlockPerson, { userId: person.id }));
      expect(later.json().data.person).toMatchObject({ status: 'active', unlockNeedsHelpDesk: false });
    });

    it('resets the second factor: authenticator, recovery codes and passkeys gone, sessions ended', async () => {
      const { x, caller } = await twoLocations();
      const person = await createPerson(app, { totpSecretEncrypted: 'ciphertext', totpLastStep: 5 });
      await link(app, person.id, x.id, 'user');
      await app.database.db.insert(passkeys).values({
        userId: person.id,
        credentialId: `cred-${person.id}`,
        publicKey: 'key',
        name: 'Laptop',
      });
      await app.database.db.insert(mfaRecoveryCodes).values({ userId: person.id, codeHash: 'h'.repeat(64) });
      const theirs = await sessionOf(app, clock, person.id);

      const res = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.resetPersonMfa, { userId: person.id }));
      expect(res.statusCode).toBe(200);
      expect(res.json().data.person).toMatchObject({ mfaEnrolled: false, passkeyCount: 0 });
      const [row] = await app.database.db.select().from(users).where(eq(users.id, person.id));
      expect(row).toMatchObject({ totpSecretEncrypted: null, totpLastStep: null, mfaEnrolledAt: null });
      expect(await app.database.db.select().from(passkeys).where(eq(passkeys.userId, person.id))).toEqual([]);
      expect(
        await app.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, person.id)),
      ).toEqual([]);
      expect((await callAs(app, theirs, 'GET', '/api/session')).json().data.loggedIn).toBe(false);
      const [email] = await emailsTo(person.email, 'account-changed-by-admin');
      expect(email!.data).toMatchObject({ change: 'mfa-reset' });
    });

    it('refuses account actions on oneself, and every action without a recent login', async () => {
      const { adminX, caller } = await twoLocations();
      const self = await callAs(app, caller, 'POST', adminPath(ADMIN_ROUTES.disablePerson, { userId: adminX.id }));
      expect(self.statusCode).toBe(400);
      expect(self.json().errorMessage).toBe('Admin_Self_Action');
      const stale = await staleSessionOf(app, clock, adminX.id, 25);
      const res = await callAs(app, stale, 'POST', adminPath(ADMIN_ROUTES.unlockPerson, { userId: adminX.id }));
      expect(res.json().errorMessage).toBe('Reauthentication_Required');
    });
  });

  beforeEach(() => clock.advance(1000));
});
