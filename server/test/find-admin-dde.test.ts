import { randomUUID } from 'node:crypto';
import { FIND_ADMIN_PATH } from '@portal/contracts/find-admin';
import { DDE_REQUESTS_PATH, DDE_SUBMIT_PATH, GET_EASI_PATH } from '@portal/contracts/dde-access';
import { SESSION_COOKIE } from '@portal/contracts/auth';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/demo-data';
import { auditEvents, ddeRequests, ediEnrollments, providerLocations, users } from '../src/db/schema';
import { maskEmail } from '../src/modules/find-admin/service';
import { INACTIVITY_JOB } from '../src/modules/login-help/inactivity-job';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, portalHeaders, testConfig } from './helpers';
import { createAccount, latestEmail, newIp, link, queuedEmails } from './factories';

const DAY = 24 * 60 * 60 * 1000;
function testClock(start = Date.parse('2026-11-23T09:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), set: (ms: number) => void (now = ms) };
}

describe('find my administrator, DDE access and the inactivity job', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let locations: (typeof providerLocations.$inferSelect)[];

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now, config: testConfig({ FIND_ADMIN_PER_MINUTE: '5' }) }));
    await seedDemoData(app.database.db, { locations: 12, today: '2026-11-23' });
    locations = await app.database.db.select().from(providerLocations).orderBy(providerLocations.npi);
  });
  afterAll(() => app.close());

  function post(url: string, payload: object, options: { ip?: string; cookie?: string } = {}) {
    return app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: options.ip ?? newIp(),
      headers: { ...portalHeaders, ...(options.cookie ? { cookie: `${SESSION_COOKIE}=${options.cookie}` } : {}) },
    });
  }

  async function loggedIn(username: string) {
    const user = await createAccount(app, username);
    const cookie = await createSession(app.database.db, {
      userId: user.id,
      stage: 'active',
      now: clock.now(),
      limits: app.config.sessions,
    });
    return { user, cookie };
  }

  describe('find my administrator', () => {
    it('masks emails: the first character, four dots, the domain', () => {
      expect(maskEmail('jane.doe@example.com')).toBe('j••••@example.com');
      expect(maskEmail('a@b.org')).toBe('a••••@b.org');
    });

    it("answers the location's active administrators, names and masked emails only", async () => {
      const location = locations[0]!;
      const admin = await createAccount(app, 'fa.admin', { firstName: 'Jane', lastName: 'Doe', phone: '4105550123' });
      const plainUser = await createAccount(app, 'fa.user');
      const disabledAdmin = await createAccount(app, 'fa.gone', { status: 'disabled_admin' });
      await link(app, admin.id, location.id, 'administrator');
      await link(app, plainUser.id, location.id, 'user');
      await link(app, disabledAdmin.id, location.id, 'administrator');
      // Typed with a dash and lower case, as people do.
      const res = await post(FIND_ADMIN_PATH, {
        npi: location.npi,
        ptan: location.ptan.toLowerCase(),
        tin: `${location.tin.slice(0, 2)}-${location.tin.slice(2)}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: {
          // The location's name: a person asking for access sees which office the identifiers name.
          locationName: location.legalName,
          administrators: [{ firstName: 'Jane', lastName: 'Doe', maskedEmail: 'f••••@example.com' }],
          // The contact relay's opaque handle (find-admin-contact.test.ts): no id, no address.
          contactToken: expect.any(String),
        },
      });
      expect(res.body).not.toContain(admin.email);
      expect(res.body).not.toContain('4105550123');
    });

    it('a location without an administrator answers an empty list', async () => {
      const location = locations[1]!;
      const res = await post(FIND_ADMIN_PATH, { npi: location.npi, ptan: location.ptan, tin: location.tin });
      expect(res.json()).toEqual({ data: { locationName: location.legalName, administrators: [] } });
    });

    it('no match answers one code whichever identifier was wrong; the audit trail holds no TIN', async () => {
      const [a, b] = locations;
      const answers = await Promise.all(
        [
          { npi: a!.npi, ptan: a!.ptan, tin: b!.tin === a!.tin ? '999999999' : b!.tin },
          { npi: a!.npi, ptan: 'ZZ99999', tin: a!.tin },
          { npi: b!.npi === a!.npi ? locations[5]!.npi : b!.npi, ptan: a!.ptan, tin: a!.tin },
        ].map((payload) => post(FIND_ADMIN_PATH, payload)),
      );
      for (const res of answers) {
        expect(res.statusCode).toBe(404);
        expect(res.body).toBe(answers[0]!.body);
      }
      expect(answers[0]!.json()).toEqual({ errorMessage: 'Find_Admin_No_Match' });
      const audit = JSON.stringify(
        await app.database.db.select().from(auditEvents).where(eq(auditEvents.action, 'location.find-admin')),
      );
      for (const location of locations.slice(0, 2)) expect(audit).not.toContain(location.tin);
    });

    it('is limited per client: the N+1th request in a minute gets 429 with Retry-After', async () => {
      const ip = newIp();
      const location = locations[2]!;
      const payload = { npi: location.npi, ptan: location.ptan, tin: location.tin };
      for (let i = 0; i < 5; i++) expect((await post(FIND_ADMIN_PATH, payload, { ip })).statusCode).toBe(200);
      const over = await post(FIND_ADMIN_PATH, payload, { ip });
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('DDE access', () => {
    it('get-easi answers the enrollment facts of linked locations only; 403 for another location', async () => {
      const { user, cookie } = await loggedIn('dde.easi');
      const [linked, other] = [locations[3]!, locations[4]!];
      await link(app, user.id, linked.id, 'user');
      const [enrollment] = await app.database.db
        .select()
        .from(ediEnrollments)
        .where(eq(ediEnrollments.locationId, linked.id));
      expect(enrollment).toBeDefined();
      const all = await post(GET_EASI_PATH, {}, { cookie });
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual({
        data: {
          locations: [
            {
              locationId: linked.id,
              legalName: linked.legalName,
              npi: linked.npi,
              ptan: linked.ptan,
              jurisdiction: linked.jurisdiction,
              lineOfBusiness: linked.lineOfBusiness,
              enrollment: {
                submitterId: enrollment!.submitterId,
                networkServiceVendor: enrollment!.networkServiceVendor,
                ddeAccessType: enrollment!.ddeAccessType,
                status: enrollment!.status,
              },
            },
          ],
        },
      });
      expect((await post(GET_EASI_PATH, { locationId: linked.id }, { cookie })).json()).toEqual(all.json());
      const denied = await post(GET_EASI_PATH, { locationId: other.id }, { cookie });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ errorMessage: 'Dde_Location_Not_Linked' });
      expect((await post(GET_EASI_PATH, {})).statusCode).toBe(401);
    });

    it('submit: a reference number, one row and one email however often the same form is retried', async () => {
      const { user, cookie } = await loggedIn('dde.submit');
      const location = locations[3]!;
      await link(app, user.id, location.id, 'administrator');
      const form = {
        idempotencyKey: randomUUID(),
        locationId: location.id,
        requestType: 'new',
        ddeAccessType: 'inquiry',
        submitterId: 'abc123',
        networkServiceVendor: 'Northwind Network Services',
        contactPhone: '(410) 555-0123',
      };
      const answers = await Promise.all([
        post(DDE_SUBMIT_PATH, form, { cookie }),
        post(DDE_SUBMIT_PATH, form, { cookie }),
      ]);
      answers.push(await post(DDE_SUBMIT_PATH, form, { cookie }));
      for (const res of answers) expect(res.statusCode).toBe(200);
      const { referenceNumber } = answers[0]!.json().data;
      expect(referenceNumber).toMatch(/^DDE-2026-\d{6}$/);
      for (const res of answers) expect(res.json()).toEqual(answers[0]!.json());
      const rows = await app.database.db.select().from(ddeRequests).where(eq(ddeRequests.requesterId, user.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.body).toMatchObject({ submitterId: 'ABC123', contactPhone: '4105550123' });
      const emails = await queuedEmails(app, { to: user.email });
      expect(emails.map((e) => e.template)).toEqual(['dde-request-received']);
      expect(emails[0]!.data).toMatchObject({ referenceNumber });

      // The same key with other details is refused; a new key is a new request with the next number.
      const changed = await post(DDE_SUBMIT_PATH, { ...form, ddeAccessType: 'inquiry-and-claims' }, { cookie });
      expect(changed.statusCode).toBe(409);
      expect(changed.json()).toEqual({ errorMessage: 'Dde_Idempotency_Conflict' });
      const next = await post(DDE_SUBMIT_PATH, { ...form, idempotencyKey: randomUUID() }, { cookie });
      expect(next.json().data.referenceNumber).not.toBe(referenceNumber);
    });

    it('submit: 403 for a location the user is not linked to, 401 without a session; nothing stored', async () => {
      const { user, cookie } = await loggedIn('dde.outsider');
      const form = {
        idempotencyKey: randomUUID(),
        locationId: locations[6]!.id,
        requestType: 'new',
        ddeAccessType: 'inquiry',
        submitterId: 'X1',
        networkServiceVendor: 'Vendor',
      };
      const denied = await post(DDE_SUBMIT_PATH, form, { cookie });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ errorMessage: 'Dde_Location_Not_Linked' });
      expect((await post(DDE_SUBMIT_PATH, form)).statusCode).toBe(401);
      expect(await app.database.db.select().from(ddeRequests).where(eq(ddeRequests.requesterId, user.id))).toEqual([]);
    });

    it("requests: the user's own requests, newest first, with reference, date and location; 401 without a session", async () => {
      const { user, cookie } = await loggedIn('dde.lister');
      const other = await loggedIn('dde.colleague');
      const location = locations[8]!;
      await link(app, user.id, location.id, 'administrator');
      await link(app, other.user.id, location.id, 'user');
      const list = () =>
        app.inject({
          method: 'GET',
          url: DDE_REQUESTS_PATH,
          remoteAddress: newIp(),
          headers: { ...portalHeaders, cookie: `${SESSION_COOKIE}=${cookie}` },
        });
      expect((await list()).json()).toEqual({ data: { requests: [] } });

      const form = {
        locationId: location.id,
        ddeAccessType: 'inquiry',
        submitterId: 'LIST1',
        networkServiceVendor: 'Vendor',
      };
      const first = await post(
        DDE_SUBMIT_PATH,
        { ...form, idempotencyKey: randomUUID(), requestType: 'new' },
        { cookie },
      );
      clock.set(clock.now().getTime() + 60_000);
      const second = await post(
        DDE_SUBMIT_PATH,
        { ...form, idempotencyKey: randomUUID(), requestType: 'change' },
        { cookie },
      );
      // A colleague's request for the same location is theirs, not this user's.
      await post(
        DDE_SUBMIT_PATH,
        { ...form, idempotencyKey: randomUUID(), requestType: 'new' },
        { cookie: other.cookie },
      );

      const res = await list();
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json().data.requests).toEqual([
        {
          referenceNumber: second.json().data.referenceNumber,
          submittedAt: second.json().data.submittedAt,
          requestType: 'change',
          legalName: location.legalName,
          status: 'received',
        },
        {
          referenceNumber: first.json().data.referenceNumber,
          submittedAt: first.json().data.submittedAt,
          requestType: 'new',
          legalName: location.legalName,
          status: 'received',
        },
      ]);
      const anonymous = await app.inject({ method: 'GET', url: DDE_REQUESTS_PATH, headers: portalHeaders });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('the inactivity job', () => {
    it('disables accounts unused for 60 days (login or password change), emails a notice, audits; others stay', async () => {
      const now = clock.now().getTime();
      const ago = (days: number) => new Date(now - days * DAY);
      const stale = await createAccount(app, 'job.stale', { lastLoginAt: ago(61), passwordChangedAt: ago(200) });
      const edge = await createAccount(app, 'job.edge', { lastLoginAt: ago(59), passwordChangedAt: ago(200) });
      const neverLoggedIn = await createAccount(app, 'job.never', { passwordChangedAt: ago(90) });
      await app.database.db
        .update(users)
        .set({ createdAt: ago(90) })
        .where(eq(users.id, neverLoggedIn.id));
      const reset = await createAccount(app, 'job.reset', { lastLoginAt: ago(100), passwordChangedAt: ago(3) });
      const locked = await createAccount(app, 'job.locked', { status: 'locked', lastLoginAt: ago(100) });

      expect(await app.jobs.runOnce(INACTIVITY_JOB, { force: true })).toBe(true);
      const status = async (id: string) =>
        (await app.database.db.select({ s: users.status }).from(users).where(eq(users.id, id)))[0]!.s;
      expect(await status(stale.id)).toBe('disabled_inactive');
      expect(await status(neverLoggedIn.id)).toBe('disabled_inactive');
      expect(await status(edge.id)).toBe('active');
      expect(await status(reset.id)).toBe('active');
      expect(await status(locked.id)).toBe('locked');
      expect((await latestEmail(app, stale.email, 'account-disabled-inactive'))!.data).toEqual({
        firstName: 'Pat',
        days: 60,
      });
      expect(await latestEmail(app, edge.email, 'account-disabled-inactive')).toBeUndefined();
      const events = await app.database.db.select().from(auditEvents).where(eq(auditEvents.target, stale.id));
      expect(events.map((e) => e.action)).toContain('account.disabled-inactive');
      // Once per interval across instances: an unforced run right after is skipped.
      expect(await app.jobs.runOnce(INACTIVITY_JOB)).toBe(false);
    });
  });
});
