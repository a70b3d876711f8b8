import { adminPath } from '@portal/contracts/paths';
import {
  ADMIN_INVITATION_REVOKE_PATH,
  ADMIN_INVITATIONS_PATH,
  INVITATION_ACCEPT_PATH,
  INVITATION_LOOKUP_PATH,
  INVITATION_TTL_MS,
} from '@portal/contracts/invitations';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_REQUEST_ROUTES } from '@portal/contracts/access-requests';
import { accessRequests, auditEvents, invitations, userLocations, users } from '../src/db/schema';
import { renderEmail } from '../src/emails';
import { hashOneTimeToken } from '../src/identity/one-time-tokens';
import { buildTestApp, callAs, otherSession, testClock, testConfig, type TestClient } from './helpers';
import { createAccount, latestEmail, newIp, link, createLocation, queuedEmails } from './factories';

const DAY = 24 * 60 * 60 * 1000;
const revokePath = (locationId: string, id: string) =>
  adminPath(ADMIN_INVITATION_REVOKE_PATH, { locationId, invitationId: id });

describe('invitations (docs/requirements/staff-accounts.md#invitations)', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let locationX: string;
  let locationY: string;
  let adminX: TestClient & { id: string; email: string };
  let adminY: TestClient & { id: string };
  let n = 0;

  async function location(npi: string): Promise<string> {
    return (await createLocation(app, { npi, legalName: `Clinic ${npi}`, lineOfBusiness: 'A' })).id;
  }

  /** A new active account with a fresh session; linked to `locationId` with `role` when given. */
  async function person(
    extra: { email?: string; locationId?: string; role?: 'administrator' | 'user' } = {},
  ): Promise<TestClient & { id: string; email: string }> {
    const username = `inv.person${++n}`;
    const user = await createAccount(app, username, extra.email ? { email: extra.email } : {});
    if (extra.locationId) await link(app, user.id, extra.locationId, extra.role ?? 'user');
    return { ...(await otherSession(app, clock, user.id, { ip: newIp() })), id: user.id, email: user.email };
  }

  function invite(admin: TestClient, body: object) {
    return callAs(app, admin, 'POST', ADMIN_INVITATIONS_PATH, body);
  }

  /** Invites `email` to X as adminX and answers the token from the queued email. */
  async function invited(email: string, role: 'administrator' | 'user' = 'user'): Promise<string> {
    const res = await invite(adminX, { locationId: locationX, email, role });
    expect(res.statusCode).toBe(200);
    const mail = await latestEmail(app, email, 'invitation');
    return (mail!.data as { token: string }).token;
  }

  const lookup = (token: unknown) => callAs(app, { ip: newIp() }, 'POST', INVITATION_LOOKUP_PATH, { token });

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now, config: testConfig() }));
    locationX = await location('1000000001');
    locationY = await location('1000000002');
    adminX = await person({ locationId: locationX, role: 'administrator' });
    adminY = await person({ locationId: locationY, role: 'administrator' });
  });
  afterAll(() => app.close());

  describe('POST /api/admin/invitations', () => {
    it('stores only the hash, emails a link with the token in the fragment, and lists the invitation', async () => {
      const res = await invite(adminX, { locationId: locationX, email: 'New.Person@Example.com', role: 'user' });
      expect(res.statusCode).toBe(200);
      const created = res.json().data;
      expect(created).toMatchObject({
        locationId: locationX,
        locationName: 'Clinic 1000000001',
        email: 'New.Person@Example.com',
        role: 'user',
        invitedBy: 'Pat Tester',
        expiresAt: new Date(clock.now().getTime() + INVITATION_TTL_MS).toISOString(),
      });

      const mail = await latestEmail(app, 'New.Person@Example.com', 'invitation');
      const token = (mail!.data as { token: string }).token;
      const [row] = await app.database.db.select().from(invitations).where(eq(invitations.id, created.id));
      expect(row!.tokenHash).toBe(hashOneTimeToken(token));
      expect(JSON.stringify(row)).not.toContain(token);

      const text = renderEmail(app.config.publicUrl, 'invitation', mail!.data).text;
      expect(text).toContain('Hello,');
      expect(text).toContain(`${app.config.publicUrl}/invitation#token=${token}`);
      expect(text).toContain('Pat Tester invited you to use the Medicare Provider Portal for Clinic 1000000001');
      expect(text).toContain('within 7 days of this email');

      const list = await callAs(app, adminX, 'GET', ADMIN_INVITATIONS_PATH);
      expect(list.json().data.invitations.map((i: { id: string }) => i.id)).toContain(created.id);
      expect(list.json().data.locations).toEqual([
        { locationId: locationX, legalName: 'Clinic 1000000001', npi: '1000000001' },
      ]);
      const audit = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'invitation.sent'), eq(auditEvents.target, created.id)));
      expect(audit).toMatchObject([{ actor: adminX.id, outcome: 'success', details: { locationId: locationX } }]);
    });

    it("carries the invited person's name to the greeting; a name too long is 400 with its field", async () => {
      const res = await invite(adminX, {
        locationId: locationX,
        email: 'named@example.com',
        role: 'user',
        name: ' Dana Reyes ',
      });
      expect(res.statusCode).toBe(200);
      const mail = await latestEmail(app, 'named@example.com', 'invitation');
      expect(renderEmail(app.config.publicUrl, 'invitation', mail!.data).text).toContain('Hello Dana Reyes,');
      const long = await invite(adminX, {
        locationId: locationX,
        email: 'long@example.com',
        role: 'user',
        name: 'x'.repeat(101),
      });
      expect(long.statusCode).toBe(400);
      expect(Object.keys(long.json().fieldErrors)).toEqual(['name']);
    });

    it("refuses a location the caller does not administer, with nothing stored or sent (another location's, a user's)", async () => {
      const plainUserOfX = await person({ locationId: locationX, role: 'user' });
      for (const [caller, locationId] of [
        [adminY, locationX],
        [plainUserOfX, locationX],
        [adminX, '00000000-0000-4000-8000-000000000000'],
        [adminX, 'not-a-uuid'],
      ] as const) {
        const email = `nobody${++n}@example.com`;
        const res = await invite(caller, { locationId, email, role: 'administrator' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ errorMessage: 'Not_Found' });
        expect(await latestEmail(app, email, 'invitation')).toBeUndefined();
        expect(await app.database.db.select().from(invitations).where(eq(invitations.email, email))).toEqual([]);
      }
    });

    it('answers 400 with a code on bad input, 401 without a login, 403 on a stale login', async () => {
      for (const body of [
        { locationId: locationX, email: 'not-an-email', role: 'user' },
        { locationId: locationX, email: 'a@example.com', role: 'owner' },
        { locationId: locationX, email: 'a@example.com', role: 'user', extra: 1 },
      ]) {
        const res = await invite(adminX, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorMessage).toMatch(/^[A-Z][a-z]+(_[A-Z][a-z]+)*$/);
      }
      expect(
        (await invite({ ip: newIp() }, { locationId: locationX, email: 'a@example.com', role: 'user' })).statusCode,
      ).toBe(401);

      const stale = await otherSession(app, clock, adminX.id, { ip: newIp() });
      clock.advance(app.config.login.reauthenticationWindowMs + 1000);
      const res = await invite(stale, { locationId: locationX, email: 'stale@example.com', role: 'user' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errorMessage: 'Reauthentication_Required' });
      adminX = { ...adminX, ...(await otherSession(app, clock, adminX.id, { ip: newIp() })) };
    });

    it('refuses an address whose account already has the location (409)', async () => {
      const member = await person({ locationId: locationX });
      const res = await invite(adminX, { locationId: locationX, email: member.email.toUpperCase(), role: 'user' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ errorMessage: 'Invitation_Already_Member' });
    });

    it('a new invitation of the same address replaces the open one: the older link says a newer one was sent', async () => {
      const first = await invited('twice@example.com');
      const second = await invited('twice@example.com');
      // Not "withdrawn by the administrator… invite you again": a valid newer link waits in the same inbox.
      expect((await lookup(first)).json()).toEqual({ errorMessage: 'Invitation_Replaced' });
      expect((await lookup(second)).statusCode).toBe(200);
    });
  });

  describe('POST /api/invitations/lookup', () => {
    it('answers the location name, the invited address (the registration fills it in), role and expiry, nothing else', async () => {
      const token = await invited('lookup@example.com', 'administrator');
      const res = await lookup(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: {
          locationName: 'Clinic 1000000001',
          email: 'lookup@example.com',
          role: 'administrator',
          expiresAt: new Date(clock.now().getTime() + INVITATION_TTL_MS).toISOString(),
        },
      });
    });

    it('answers 400 with a code for an unknown, malformed, missing or expired token, never a 500', async () => {
      expect((await lookup('A'.repeat(43))).json()).toEqual({ errorMessage: 'Invitation_Invalid' });
      for (const token of ['short', '', 42, null, 'x'.repeat(600), undefined]) {
        const res = await lookup(token);
        expect(res.statusCode, String(token)).toBe(400);
        expect(res.json(), String(token)).toEqual({
          errorMessage: 'Validation_Failed',
          fieldErrors: { token: ['Invitation_Invalid'] },
        });
      }

      const token = await invited('late@example.com');
      clock.advance(INVITATION_TTL_MS + 1);
      const res = await lookup(token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errorMessage: 'Invitation_Expired' });
      adminX = { ...adminX, ...(await otherSession(app, clock, adminX.id, { ip: newIp() })) };
      adminY = { ...adminY, ...(await otherSession(app, clock, adminY.id, { ip: newIp() })) };
    });
  });

  describe('POST /api/invitations/accept', () => {
    it('links the logged-in invitee at once with the role, certified for a year by the inviter; works once', async () => {
      const invitee = await person({ email: 'Accept.Me@example.com' });
      const token = await invited('accept.me@EXAMPLE.com', 'administrator');
      const res = await callAs(app, invitee, 'POST', INVITATION_ACCEPT_PATH, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { locationId: locationX, locationName: 'Clinic 1000000001', role: 'administrator' },
      });
      const [link] = await app.database.db.select().from(userLocations).where(eq(userLocations.userId, invitee.id));
      expect(link).toMatchObject({
        locationId: locationX,
        role: 'administrator',
        status: 'active',
        certifiedBy: adminX.id,
        certifiedUntil: new Date(clock.now().getTime() + 365 * DAY),
      });
      const [row] = await app.database.db
        .select()
        .from(invitations)
        .where(eq(invitations.tokenHash, hashOneTimeToken(token)));
      expect(row).toMatchObject({ usedBy: invitee.id, usedAt: clock.now() });

      // The inviter is told.
      const notice = await latestEmail(app, adminX.email, 'invitation-accepted');
      expect(renderEmail(app.config.publicUrl, 'invitation-accepted', notice!.data)).toMatchObject({
        subject: expect.stringContaining('accepted your invitation'),
        text: expect.stringContaining('now has access to Clinic 1000000001 as an administrator'),
      });

      const again = await callAs(app, invitee, 'POST', INVITATION_ACCEPT_PATH, { token });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ errorMessage: 'Invitation_Used' });
      expect((await lookup(token)).json()).toEqual({ errorMessage: 'Invitation_Used' });

      const activity = await callAs(app, invitee, 'GET', '/api/account/activity');
      expect(activity.json().data.items.map((i: { description: string }) => i.description)).toContain(
        'Invitation accepted: provider location added',
      );
      // The open list no longer shows it.
      const list = await callAs(app, adminX, 'GET', ADMIN_INVITATIONS_PATH);
      expect(list.json().data.invitations.map((i: { id: string }) => i.id)).not.toContain(row!.id);
    });

    it('refuses an account whose email is not the invited one (403) and keeps the invitation usable', async () => {
      const other = await person();
      const token = await invited('someone.else@example.com');
      const res = await callAs(app, other, 'POST', INVITATION_ACCEPT_PATH, { token });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errorMessage: 'Invitation_Email_Mismatch' });
      expect(await app.database.db.select().from(userLocations).where(eq(userLocations.userId, other.id))).toEqual([]);
      expect((await lookup(token)).statusCode).toBe(200);
      const [event] = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'invitation.accepted'), eq(auditEvents.actor, other.id)));
      expect(event).toMatchObject({ outcome: 'failure', details: { reason: 'Invitation_Email_Mismatch' } });
    });

    it('refuses an invitee who already has the location (409), needs a login (401), and bad tokens are 400', async () => {
      const invitee = await person({ email: 'member.later@example.com' });
      const token = await invited('member.later@example.com');
      await link(app, invitee.id, locationX, 'user');
      const res = await callAs(app, invitee, 'POST', INVITATION_ACCEPT_PATH, { token });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ errorMessage: 'Invitation_Already_Member' });

      expect((await callAs(app, { ip: newIp() }, 'POST', INVITATION_ACCEPT_PATH, { token })).statusCode).toBe(401);
      for (const bad of ['B'.repeat(43), 'short', 7]) {
        const answer = await callAs(app, invitee, 'POST', INVITATION_ACCEPT_PATH, { token: bad });
        expect(answer.statusCode).toBe(400);
        expect(JSON.stringify(answer.json())).toContain('Invitation_Invalid');
      }
    });

    it('an administrator invitation to a location at the administrators limit is 409 and stays usable', async () => {
      const invitee = await person({ email: 'sixth.admin@example.com' });
      const token = await invited('sixth.admin@example.com', 'administrator');
      const admins = await app.database.db
        .select()
        .from(userLocations)
        .where(and(eq(userLocations.locationId, locationX), eq(userLocations.role, 'administrator')));
      for (let i = admins.length; i < app.config.staff.adminsPerLocationMax; i++)
        await person({ locationId: locationX, role: 'administrator' });
      const res = await callAs(app, invitee, 'POST', INVITATION_ACCEPT_PATH, { token });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ errorMessage: 'Admin_Limit_Reached' });
      expect((await lookup(token)).statusCode).toBe(200);
      expect(await app.database.db.select().from(userLocations).where(eq(userLocations.userId, invitee.id))).toEqual(
        [],
      );
    });

    it('of two concurrent acceptances exactly one wins', async () => {
      const invitee = await person({ email: 'race@example.com' });
      const second = { ...(await otherSession(app, clock, invitee.id, { ip: newIp() })) };
      const token = await invited('race@example.com');
      const answers = await Promise.all([
        callAs(app, invitee, 'POST', INVITATION_ACCEPT_PATH, { token }),
        callAs(app, second, 'POST', INVITATION_ACCEPT_PATH, { token }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect(
        await app.database.db.select().from(userLocations).where(eq(userLocations.userId, invitee.id)),
      ).toHaveLength(1);
    });
  });

  describe('POST /api/admin/invitations/:id/revoke', () => {
    it("refuses another location's administrator with 404 and no data; the location's own administrator revokes", async () => {
      const token = await invited('revoke.me@example.com');
      const [row] = await app.database.db
        .select()
        .from(invitations)
        .where(eq(invitations.tokenHash, hashOneTimeToken(token)));

      // Through X's path (the guard) and through Y's own path (the service): the same 404, nothing said.
      const foreign = await callAs(app, adminY, 'POST', revokePath(locationX, row!.id));
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ errorMessage: 'Not_Found' });
      const viaOwn = await callAs(app, adminY, 'POST', revokePath(locationY, row!.id));
      expect(viaOwn.statusCode).toBe(404);
      expect(viaOwn.json()).toEqual({ errorMessage: 'Invitation_Not_Found' });
      expect((await callAs(app, adminY, 'GET', ADMIN_INVITATIONS_PATH)).json().data.invitations).toEqual([]);
      const otherList = await callAs(app, adminY, 'GET', `${ADMIN_INVITATIONS_PATH}?locationId=${locationX}`);
      expect(otherList.statusCode).toBe(404);
      expect(otherList.json()).toEqual({ errorMessage: 'Not_Found' });
      expect((await lookup(token)).statusCode).toBe(200);

      const own = await callAs(app, adminX, 'POST', revokePath(locationX, row!.id));
      expect(own.statusCode).toBe(200);
      expect((await lookup(token)).json()).toEqual({ errorMessage: 'Invitation_Revoked' });
      expect((await callAs(app, adminX, 'POST', revokePath(locationX, row!.id))).statusCode).toBe(404);
      expect((await callAs(app, adminX, 'POST', revokePath(locationX, 'not-a-uuid'))).statusCode).toBe(400);
      const audit = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'invitation.revoked'), eq(auditEvents.target, row!.id)));
      expect(audit).toMatchObject([{ actor: adminX.id, outcome: 'success', details: { locationId: locationX } }]);
      const emails = await queuedEmails(app, { to: 'revoke.me@example.com' });
      expect(emails).toHaveLength(1);
    });
  });
  describe('the invited path of POST /api/user-registration', () => {
    let serial = 0;
    function registration(email: string, token: unknown, locations: object[] = []) {
      serial++;
      return callAs(app, { ip: newIp() }, 'POST', ACCESS_REQUEST_ROUTES.userRegistration, {
        firstName: 'Dana',
        lastName: 'Reyes',
        email,
        emailConfirmation: email,
        phone: '(410) 555-0188',
        dob: '1988-03-02',
        username: `invited.r${serial}`,
        password: 'copper lantern meadow 77 violin',
        securityQuestions: [
          { questionId: 'first-car', answer: 'Red Civic' },
          { questionId: 'first-school', answer: 'Jefferson' },
          { questionId: 'childhood-nickname', answer: 'Dee' },
        ],
        locations,
        ...(token === undefined ? {} : { invitationToken: token }),
      });
    }
    const userNamed = (username: string) => app.database.db.select().from(users).where(eq(users.username, username));

    it('creates the account active (the link proved the address), the location granted, no request, the inviter told', async () => {
      const token = await invited('New.Invitee@example.com', 'user');
      const res = await registration('new.invitee@example.com', token);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ data: { registered: true, active: true } });
      const [user] = await userNamed(`invited.r${serial}`);
      expect(user).toMatchObject({ status: 'active', email: 'new.invitee@example.com' });
      const links = await app.database.db.select().from(userLocations).where(eq(userLocations.userId, user!.id));
      expect(links).toMatchObject([{ locationId: locationX, role: 'user', certifiedBy: adminX.id }]);
      expect(await app.database.db.select().from(accessRequests).where(eq(accessRequests.userId, user!.id))).toEqual(
        [],
      );
      // No second "Confirm your email".
      expect(await latestEmail(app, 'new.invitee@example.com', 'verify-email')).toBeUndefined();
      const notice = await latestEmail(app, adminX.email, 'invitation-accepted');
      expect(renderEmail(app.config.publicUrl, 'invitation-accepted', notice!.data).text).toContain(
        'Dana Reyes accepted your invitation and now has access to Clinic 1000000001 as a user.',
      );
      expect((await lookup(token)).json()).toEqual({ errorMessage: 'Invitation_Used' });
    });

    it('refuses a bad token or another address with its code and creates nothing', async () => {
      const token = await invited('only.me@example.com');
      for (const [email, bad, code] of [
        ['someone.else@example.com', token, 'Invitation_Email_Mismatch'],
        ['only.me@example.com', 'C'.repeat(43), 'Invitation_Invalid'],
      ] as const) {
        const res = await registration(email, bad);
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json()).toEqual({ errorMessage: code });
        expect(await userNamed(`invited.r${serial}`)).toEqual([]);
      }
      const malformed = await registration('only.me@example.com', 'short');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().fieldErrors).toEqual({ invitationToken: ['Invitation_Invalid'] });
      // Without an invitation a location is still required.
      const none = await registration('only.me@example.com', undefined);
      expect(none.json().fieldErrors).toEqual({ locations: ['Access_Request_Location_Required'] });
      expect((await lookup(token)).statusCode).toBe(200);
    });

    it('an address that already has an account: the same answer, the invitation stays for that account', async () => {
      const holder = await person({ email: 'has.account@example.com' });
      const token = await invited('has.account@example.com');
      const res = await registration('has.account@example.com', token);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ data: { registered: true } });
      const [pending] = await userNamed(`invited.r${serial}`);
      expect(pending!.status).toBe('pending');
      expect(await app.database.db.select().from(userLocations).where(eq(userLocations.userId, pending!.id))).toEqual(
        [],
      );
      expect((await lookup(token)).statusCode).toBe(200);
      // A bad token is refused as it is for a free address: the answer never says whether the address has an account.
      expect((await registration('has.account@example.com', 'D'.repeat(43))).json()).toEqual({
        errorMessage: 'Invitation_Invalid',
      });
      expect((await callAs(app, holder, 'POST', INVITATION_ACCEPT_PATH, { token })).statusCode).toBe(200);
    });
  });
});
