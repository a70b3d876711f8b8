import { SESSION_COOKIE } from '@portal/contracts/auth';
import { ACCESS_REQUEST_ROUTES } from '@portal/contracts/access-requests';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessRequests, auditEvents, userLocations, users } from '../src/db/schema';
import { REGISTRATION_EXPIRY_JOB } from '../src/modules/registration/jobs';
import { buildTestApp, callAs, otherSession, testClock, testConfig, type TestClient } from './helpers';
import {
  createAccount,
  createLocation,
  locationIdentifiers,
  newIp,
  verificationToken,
  link,
  requestAccess,
  queuedEmails,
} from './factories';
import * as registration from './support/registration';

/** End users and their access requests (docs/requirements/staff-accounts.md#end-users). */

const clock = testClock();

/** Each test acts from its own client address, so one test's per-client limits never touch another. */

/** Registrations come from the registration forms' shared fixture (support/registration.ts). */
const ids = locationIdentifiers;

/** The end user who registers in these tests. */
const DANA = {
  firstName: 'Dana',
  lastName: 'Reyes',
  phone: '(410) 555-0188',
  dob: '1988-03-02',
  password: 'copper lantern meadow 77 violin',
  answers: { 'first-car': 'Red Civic', 'first-school': 'Jefferson', 'childhood-nickname': 'Dee' },
};
const userBody = (locations: object[], overrides: Record<string, unknown> = {}) =>
  registration.accountFields(DANA, { locations, ...overrides });

const post = (app: FastifyInstance, url: string, payload: unknown, ip = newIp()) =>
  registration.postForm(app, url, payload, ip);

/** A name of its own for an account made in the table. */
let accountSerial = 0;

const withdrawUrl = (id: string) => ACCESS_REQUEST_ROUTES.withdraw.replace(':id', id);

describe('end users and access requests', () => {
  let app: FastifyInstance;
  let logLines: string[];

  beforeAll(async () => {
    ({ app, logLines } = await buildTestApp({
      clock: clock.now,
      config: testConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', REGISTRATION_ATTEMPTS_PER_MINUTE: '6' }),
    }));
  });
  afterAll(() => app.close());

  /** A logged-in person (active account, active session). */
  async function loggedIn(name: string): Promise<{ userId: string; client: TestClient }> {
    const user = await createAccount(app, `${name}${++accountSerial}`);
    return { userId: user.id, client: await otherSession(app, clock, user.id, { ip: newIp() }) };
  }

  describe('POST /api/user-registration', () => {
    it('creates a pending account, one pending request per location, and emails the verification link', async () => {
      const a = await createLocation(app);
      const b = await createLocation(app);
      // The same location twice is one request.
      const body = userBody([ids(a), ids(b), ids(a)]);
      const res = await post(app, ACCESS_REQUEST_ROUTES.userRegistration, body);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ data: { registered: true } });

      const { db } = app.database;
      const [user] = await db.select().from(users).where(eq(users.username, body.username));
      expect(user).toMatchObject({ status: 'pending', firstName: 'Dana', dob: '1988-03-02' });
      const requests = await db.select().from(accessRequests).where(eq(accessRequests.userId, user!.id));
      expect(requests.map((r) => [r.locationId, r.status]).sort()).toEqual(
        [
          [a.id, 'pending'],
          [b.id, 'pending'],
        ].sort(),
      );
      // No link to any location until an administrator approves.
      expect(await db.select().from(userLocations).where(eq(userLocations.userId, user!.id))).toEqual([]);
      const mails = await queuedEmails(db, { to: body.email });
      expect(mails.map((m) => m.template)).toEqual(['verify-email']);

      // The link activates the account, as for administrators.
      const token = await verificationToken(app, body.email);
      expect((await post(app, REGISTRATION_ROUTES.verifyEmail, { token })).statusCode).toBe(200);
      const [active] = await db.select().from(users).where(eq(users.id, user!.id));
      expect(active!.status).toBe('active');

      await registration.expectNothingPersonalKept(app, logLines, [
        '1988-03-02',
        'Civic',
        'Jefferson',
        body.password,
        a.tin,
      ]);
    });

    it('answers one non-revealing code next to each location that matches nothing, and creates nothing', async () => {
      const a = await createLocation(app);
      const other = await createLocation(app);
      const inactive = await createLocation(app, { status: 'inactive' });
      const body = userBody([ids(a), { ...ids(a), ptan: other.ptan }, ids(inactive)]);
      const res = await post(app, ACCESS_REQUEST_ROUTES.userRegistration, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        errorMessage: 'Provider_Not_Found',
        fieldErrors: { 'locations.1': ['Provider_Not_Found'], 'locations.2': ['Provider_Not_Found'] },
      });
      expect(await app.database.db.select().from(users).where(eq(users.username, body.username))).toEqual([]);
    });

    it('asks no financial facts and refuses bad input with 400 and a code', async () => {
      const a = await createLocation(app);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ locations: [] }, 'locations', 'Access_Request_Location_Required'],
        [{ locations: Array.from({ length: 11 }, () => ids(a)) }, 'locations', 'Access_Request_Too_Many_Locations'],
        [{ emailConfirmation: 'someone@example.org' }, 'emailConfirmation', 'Email_Mismatch'],
        [{ dob: '2030-01-01' }, 'dob', 'Date_Of_Birth_In_Future'],
        [{ password: 'short' }, 'password', 'Password_Too_Short'],
        [{ locations: [{ ...ids(a), claimNumber: '1234567890123' }] }, 'locations.0', ''],
        [{ locations: [{ ...ids(a), npi: '1234567890' }] }, 'locations.0.npi', ''],
        [{ registrationToken: 'x'.repeat(20) }, '', ''],
      ];
      for (const [overrides, field, code] of cases) {
        const res = await post(app, ACCESS_REQUEST_ROUTES.userRegistration, userBody([ids(a)], overrides));
        expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
        const json = res.json();
        expect(json.errorMessage).toBe('Validation_Failed');
        if (field) expect(Object.keys(json.fieldErrors), JSON.stringify(overrides)).toContain(field);
        if (code) expect(json.fieldErrors[field]).toContain(code);
      }
    });

    it('refuses a username someone has with 409 next to the field', async () => {
      const a = await createLocation(app);
      const taken = await createAccount(app, `taken${++accountSerial}`);
      const res = await post(
        app,
        ACCESS_REQUEST_ROUTES.userRegistration,
        userBody([ids(a)], { username: taken.username }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        errorMessage: 'Username_Taken',
        fieldErrors: { username: ['Username_Taken'] },
      });
    });

    it('sends a notice, not a link, to an address that already has an account (same answer)', async () => {
      const a = await createLocation(app);
      const existing = await createAccount(app, `known${++accountSerial}`);
      const body = userBody([ids(a)], { email: existing.email, emailConfirmation: existing.email });
      const res = await post(app, ACCESS_REQUEST_ROUTES.userRegistration, body);
      expect(res.statusCode).toBe(201);
      const mails = await queuedEmails(app, { to: existing.email });
      expect(mails.map((m) => m.template)).toEqual(['registration-email-in-use']);
    });

    it('words the verification email for an end user, and deletes the registration unverified after 72 hours', async () => {
      const a = await createLocation(app);
      const stale = userBody([ids(a)]);
      const fresh = userBody([ids(a)]);
      for (const body of [stale, fresh])
        expect((await post(app, ACCESS_REQUEST_ROUTES.userRegistration, body)).statusCode).toBe(201);
      const { db } = app.database;
      const [mail] = await queuedEmails(db, { to: stale.email });
      expect(mail!.data).toMatchObject({ role: 'user' });
      const [staleUser] = await db.select().from(users).where(eq(users.username, stale.username));
      await registration.registeredAgo(app, stale.username, '72 hours 1 minute');
      expect(await app.jobs.runOnce(REGISTRATION_EXPIRY_JOB, { force: true })).toBe(true);
      expect(await db.select().from(users).where(eq(users.id, staleUser!.id))).toEqual([]);
      expect(await db.select().from(accessRequests).where(eq(accessRequests.userId, staleUser!.id))).toEqual([]);
      expect(await db.select().from(users).where(eq(users.username, fresh.username))).toHaveLength(1);
    });

    it('limits lookups that find nothing per client, however many locations one request names', async () => {
      const ip = newIp();
      const a = await createLocation(app);
      const wrong = { ...ids(a), ptan: 'Z9999999' };
      // Six misses a minute (the test's REGISTRATION_ATTEMPTS_PER_MINUTE): one request naming six spends them all.
      const first = await post(app, ACCESS_REQUEST_ROUTES.userRegistration, userBody(Array(6).fill(wrong)), ip);
      expect(first.json().errorMessage).toBe('Provider_Not_Found');
      const second = await post(app, ACCESS_REQUEST_ROUTES.userRegistration, userBody([ids(a)]), ip);
      expect(second.statusCode).toBe(429);
      expect(second.json().errorMessage).toBe('Too_Many_Requests');
      // Another client is not affected.
      expect((await post(app, ACCESS_REQUEST_ROUTES.userRegistration, userBody([ids(a)]))).statusCode).toBe(201);
    });
  });

  describe('/api/access-requests', () => {
    it('a logged-in user asks for a further location, sees it pending in their list, and withdraws it', async () => {
      const { userId, client } = await loggedIn('billing');
      const l = await createLocation(app);
      const created = await callAs(app, client, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(l));
      expect(created.statusCode).toBe(201);
      const request = created.json().data.request;
      expect(request).toMatchObject({
        status: 'pending',
        location: { legalName: l.legalName, npi: l.npi, jurisdiction: 'J5', lineOfBusiness: 'B' },
        requestedAt: clock.now().toISOString(),
        decidedAt: null,
        reason: null,
      });
      expect(created.body).not.toContain(l.tin);

      const list = await callAs(app, client, 'GET', ACCESS_REQUEST_ROUTES.mine);
      expect(list.json().data.requests).toEqual([request]);

      const withdrawn = await callAs(app, client, 'POST', withdrawUrl(request.id), {});
      expect(withdrawn.statusCode).toBe(200);
      expect(withdrawn.json().data.request).toMatchObject({ id: request.id, status: 'withdrawn' });
      const [row] = await app.database.db.select().from(accessRequests).where(eq(accessRequests.id, request.id));
      expect(row!.status).toBe('withdrawn');

      // Withdrawing again: it is no longer pending. Asking again after a withdrawal is allowed.
      const again = await callAs(app, client, 'POST', withdrawUrl(request.id), {});
      expect(again.statusCode).toBe(400);
      expect(again.json().errorMessage).toBe('Access_Request_Not_Pending');
      expect((await callAs(app, client, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(l))).statusCode).toBe(201);

      const events = await app.database.db
        .select({ action: auditEvents.action, outcome: auditEvents.outcome })
        .from(auditEvents)
        .where(and(eq(auditEvents.actor, userId), eq(auditEvents.target, l.id)));
      expect(events).toEqual(
        expect.arrayContaining([
          { action: 'access-request.create', outcome: 'success' },
          { action: 'access-request.withdraw', outcome: 'success' },
          { action: 'access-request.withdraw', outcome: 'failure' },
        ]),
      );
    });

    it('refuses a second pending request and a location the user already has, each with its code', async () => {
      const { userId, client } = await loggedIn('dup');
      const l = await createLocation(app);
      const linked = await createLocation(app);
      await link(app, userId, linked.id, 'user');
      expect((await callAs(app, client, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(l))).statusCode).toBe(201);
      const dup = await callAs(app, client, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(l));
      expect(dup.statusCode).toBe(400);
      expect(dup.json()).toEqual({ errorMessage: 'Access_Request_Pending' });
      const has = await callAs(app, client, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(linked));
      expect(has.statusCode).toBe(400);
      expect(has.json()).toEqual({ errorMessage: 'Location_Already_Linked' });
    });

    it('two identical requests at once: exactly one is created', async () => {
      const { userId, client } = await loggedIn('race');
      const l = await createLocation(app);
      const answers = await Promise.all([
        callAs(app, { ...client }, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(l)),
        callAs(app, { ...client }, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(l)),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 400]);
      const rows = await app.database.db.select().from(accessRequests).where(eq(accessRequests.userId, userId));
      expect(rows).toHaveLength(1);
    });

    it('answers the same non-revealing code for a location that matches nothing, and bad input with 400', async () => {
      const { client } = await loggedIn('miss');
      const l = await createLocation(app);
      const other = await createLocation(app);
      for (const body of [
        { ...ids(l), tin: other.tin },
        { ...ids(l), jurisdiction: 'J8' },
      ]) {
        const res = await callAs(app, client, 'POST', ACCESS_REQUEST_ROUTES.mine, body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ errorMessage: 'Provider_Not_Found' });
      }
      for (const body of [{}, { ...ids(l), npi: '1234567890' }, { ...ids(l), checkNumber: 'EFT1234' }]) {
        const res = await callAs(app, client, 'POST', ACCESS_REQUEST_ROUTES.mine, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorMessage).toBe('Validation_Failed');
      }
    });

    it("only the owner withdraws: another person's request, an unknown id and a non-id are 404", async () => {
      const owner = await loggedIn('owner');
      const stranger = await loggedIn('stranger');
      const l = await createLocation(app);
      const created = await callAs(app, owner.client, 'POST', ACCESS_REQUEST_ROUTES.mine, ids(l));
      const id = created.json().data.request.id as string;
      for (const target of [id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
        const res = await callAs(app, stranger.client, 'POST', withdrawUrl(target), {});
        expect(res.statusCode, target).toBe(404);
        expect(res.json()).toEqual({ errorMessage: 'Access_Request_Not_Found' });
      }
      // The stranger's list does not show it; it is still pending.
      expect((await callAs(app, stranger.client, 'GET', ACCESS_REQUEST_ROUTES.mine)).json().data.requests).toEqual([]);
      const [row] = await app.database.db.select().from(accessRequests).where(eq(accessRequests.id, id));
      expect(row!.status).toBe('pending');
    });

    it('shows a denial with its reason, and never an approval note', async () => {
      const { userId, client } = await loggedIn('denied');
      const a = await createLocation(app);
      const b = await createLocation(app);
      const decidedAt = clock.now();
      await requestAccess(app, userId, a.id, { status: 'denied', reason: 'You do not work here.', decidedAt });
      await requestAccess(app, userId, b.id, { status: 'approved', role: 'user', reason: 'internal note', decidedAt });
      const list = (await callAs(app, client, 'GET', ACCESS_REQUEST_ROUTES.mine)).json().data.requests;
      expect(list).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            status: 'denied',
            reason: 'You do not work here.',
            decidedAt: decidedAt.toISOString(),
          }),
          expect.objectContaining({ status: 'approved', reason: null }),
        ]),
      );
    });

    it('needs a session (401) and the CSRF header for changes', async () => {
      const l = await createLocation(app);
      const anonymous = await callAs(app, { ip: newIp() }, 'GET', ACCESS_REQUEST_ROUTES.mine);
      expect(anonymous.statusCode).toBe(401);
      const { client } = await loggedIn('csrf');
      const res = await app.inject({
        method: 'POST',
        url: ACCESS_REQUEST_ROUTES.mine,
        remoteAddress: client.ip,
        headers: { cookie: `${SESSION_COOKIE}=${client.cookie}`, origin: 'https://evil.example' },
        payload: ids(l),
      });
      expect(res.statusCode).toBe(403);
    });
  });
});
