import { ADMIN_ROUTES, adminPath } from '@portal/contracts/paths';
import { OPS_ROUTES, opsPath } from '@portal/contracts/ops';
import { and, eq, inArray, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, opsSessions, sessions, userLocations, users } from '../src/db/schema';
import { hashSessionId } from '../src/identity/sessions/store';
import { OPS_SESSION_CLEANUP_JOB } from '../src/modules/ops/service';
import { buildTestApp, callAs, testClock, testConfig } from './helpers';
import { directoryEnv, startTestDirectory, type DemoDirectory } from './support/directory';
import { callOps, signInOperator, type OpsClient } from './support/operators';
import { createLocation, createPerson, link, sessionOf, outboxCount } from './factories';

/**
 * The help desk's API against bad callers (docs/requirements/help-desk.md, team rule: bad input is a 400 with an error
 * code, never a 500 or a partial write): every POST under /api/ops, taken from the app's route table so a new route
 * cannot skip it, refuses a cross-site call and bad input without changing anything; the last-administrator rule holds
 * when an operator and an administrator race; expired console sessions are purged.
 */
/** People who act in the console tests have enrolled their authenticator (an administrator without one is sent to set-up). */
const ENROLLED = { mfaEnrolledAt: new Date('2026-01-01T00:00:00Z') };

describe('help-desk API hardening', () => {
  const clock = testClock(Date.now());
  let app: FastifyInstance;
  let directory: DemoDirectory;
  let supervisor: OpsClient;
  /** Every POST under /api/ops, with whether it declares a body or path parameters. */
  const posts: { url: string; body: boolean; params: boolean }[] = [];
  const reason = 'Caller verified on the phone';

  beforeAll(async () => {
    directory = await startTestDirectory('http://localhost:3000');
    ({ app } = await buildTestApp({
      clock: clock.now,
      config: testConfig(directoryEnv(directory)),
      onRoute: (route) => {
        if (route.url.startsWith('/api/ops/') && [route.method].flat().includes('POST'))
          posts.push({ url: route.url, body: Boolean(route.schema?.body), params: Boolean(route.schema?.params) });
      },
    }));
    supervisor = (await signInOperator(app, 'supervisor')).client;
  });
  afterAll(async () => {
    await app?.close();
    await directory?.close();
  });

  const db = () => app.database.db;

  /** A valid body for each POST (the table must name every one: a new route fails the first test until added). */
  const validBodies = (personId: string): Record<string, object | null> => ({
    [OPS_ROUTES.signOut]: null,
    [OPS_ROUTES.keepAlive]: null,
    [OPS_ROUTES.revealPerson]: { field: 'email' },
    [OPS_ROUTES.unlockPerson]: { reason },
    [OPS_ROUTES.endSessions]: { reason },
    [OPS_ROUTES.resendVerification]: { reason },
    [OPS_ROUTES.disablePerson]: { reason },
    [OPS_ROUTES.enablePerson]: { reason },
    [OPS_ROUTES.resetMfa]: { reason, identityChecks: ['date_of_birth', 'location_npi_ptan'] },
    [OPS_ROUTES.restoreAdministrator]: { reason, userId: personId },
  });

  /** A locked person with a session, linked to a location: any action that went through would change one of these. */
  async function target() {
    const location = await createLocation(app);
    const person = await createPerson(app, ENROLLED);
    await link(app, person.id, location.id, 'administrator');
    await sessionOf(app, clock, person.id);
    await db()
      .update(users)
      .set({ lockedUntil: new Date(clock.now().getTime() + 3_600_000) })
      .where(eq(users.id, person.id));
    return { person, location };
  }

  /** Everything an ops POST could write, but the failure audit events a refusal itself leaves. */
  async function snapshot(personId: string, locationId: string) {
    const [person] = await db().select().from(users).where(eq(users.id, personId));
    return {
      person,
      sessions: (await db().select({ id: sessions.idHash }).from(sessions).where(eq(sessions.userId, personId))).length,
      links: await db()
        .select({ userId: userLocations.userId, role: userLocations.role, status: userLocations.status })
        .from(userLocations)
        .where(eq(userLocations.locationId, locationId)),
      outbox: await outboxCount(app),
      opsSessions: (await db().select({ id: opsSessions.idHash }).from(opsSessions)).length,
      successes: (
        await db()
          .select({ id: auditEvents.id })
          .from(auditEvents)
          .where(and(like(auditEvents.action, 'ops.%'), eq(auditEvents.outcome, 'success')))
      ).length,
    };
  }

  const cookieOf = (client: OpsClient) => `ops_session=${client.cookie}`;

  it('knows a valid body for every POST under /api/ops, and which take input', () => {
    const table = validBodies('x');
    expect(posts.map((p) => p.url).sort()).toEqual(Object.keys(table).sort());
    // The routes without a body are exactly those the table gives none.
    expect(posts.filter((p) => !p.body).map((p) => p.url)).toEqual(
      Object.entries(table)
        .filter(([, body]) => body === null)
        .map(([url]) => url),
    );
  });

  it('every POST refuses a call without the CSRF header or from a foreign origin, changing nothing', async () => {
    const { person, location } = await target();
    const before = await snapshot(person.id, location.id);
    for (const [route, body] of Object.entries(validBodies(person.id))) {
      const url = opsPath(route, { userId: person.id, locationId: location.id });
      const variants = {
        'no X-Portal-Request': { origin: 'http://localhost:3000' },
        'a foreign Origin': { 'x-portal-request': '1', origin: 'https://evil.example' },
        'a cross-site fetch': { 'x-portal-request': '1', 'sec-fetch-site': 'cross-site' },
      };
      for (const [what, headers] of Object.entries(variants)) {
        const res = await app.inject({
          method: 'POST',
          url,
          remoteAddress: supervisor.ip,
          headers: { ...headers, cookie: cookieOf(supervisor) },
          payload: body ?? {},
        });
        expect(res.statusCode, `${route} with ${what}`).toBe(403);
        expect(res.json(), `${route} with ${what}`).toEqual({ errorMessage: 'Csrf_Rejected' });
      }
    }
    expect(await snapshot(person.id, location.id)).toEqual(before);
    // The console session the refused sign-outs named is still open.
    expect((await callOps(app, supervisor, 'GET', OPS_ROUTES.session)).statusCode).toBe(200);
  });

  it('every POST answers bad input with 400 and an error code next to the field, changing nothing', async () => {
    const { person, location } = await target();
    const before = await snapshot(person.id, location.id);
    const withInput = posts.filter((p) => p.body || p.params);
    expect(withInput.length).toBeGreaterThanOrEqual(8);
    for (const { url: route, body: takesBody, params } of withInput) {
      const good = validBodies(person.id)[route]!;
      const url = opsPath(route, { userId: person.id, locationId: location.id });
      const cases: { what: string; url: string; payload: string; code: string; field?: string }[] = [];
      if (params)
        cases.push({
          what: 'a path id that is not a UUID',
          url: opsPath(route, { userId: 'not-an-id', locationId: 'not-an-id' }),
          payload: JSON.stringify(good),
          code: 'Validation_Failed',
          field: route.includes(':userId') ? 'userId' : 'locationId',
        });
      if (takesBody) {
        const [field] = Object.keys(good);
        cases.push(
          { what: 'an empty object', url, payload: '{}', code: 'Validation_Failed', field },
          {
            what: `a number for ${field}`,
            url,
            payload: JSON.stringify({ ...good, [field!]: 42 }),
            code: 'Validation_Failed',
            field,
          },
          { what: 'an unknown key', url, payload: JSON.stringify({ ...good, admin: true }), code: 'Validation_Failed' },
          {
            what: 'a reason of 10 kB',
            url,
            payload: JSON.stringify({ ...good, reason: 'x'.repeat(10_000) }),
            code: 'Validation_Failed',
          },
          { what: 'truncated JSON', url, payload: '{"reason": "Caller', code: 'Invalid_Json' },
          { what: 'a JSON array', url, payload: '[]', code: 'Validation_Failed' },
        );
      }
      for (const c of cases) {
        const res = await app.inject({
          method: 'POST',
          url: c.url,
          remoteAddress: supervisor.ip,
          headers: {
            'x-portal-request': '1',
            origin: 'http://localhost:3000',
            'content-type': 'application/json',
            cookie: cookieOf(supervisor),
          },
          payload: c.payload,
        });
        const label = `${route} with ${c.what}: ${res.body}`;
        expect(res.statusCode, label).toBe(400);
        const answer = res.json();
        expect(answer.errorMessage, label).toBe(c.code);
        expect(res.body, label).not.toMatch(/at .+\.(ts|js):\d+/);
        if (c.field) expect(Object.keys(answer.fieldErrors ?? {}), label).toContain(c.field);
      }
    }
    expect(await snapshot(person.id, location.id)).toEqual(before);
  });

  describe('the last-administrator rule, an operator and an administrator at once', () => {
    /** The location's working administrators, as the console's location page shows them to the help desk. */
    const workingAdministrators = async (locationId: string) => {
      const page = await callOps(app, supervisor, 'GET', opsPath(OPS_ROUTES.location, { locationId }));
      expect(page.statusCode).toBe(200);
      const { administrators, hasWorkingAdministrator } = page.json().data as {
        administrators: { userId: string; working: boolean }[];
        hasWorkingAdministrator: boolean;
      };
      expect(hasWorkingAdministrator).toBe(true);
      return administrators.filter((admin) => admin.working).map((admin) => admin.userId);
    };

    const racers = {
      'revokes the other’s administrator role': (locationId: string, userId: string) => ({
        url: adminPath(ADMIN_ROUTES.setPersonRole, { locationId, userId }),
        body: { role: 'user' },
      }),
      'disables the other’s account': (_locationId: string, userId: string) => ({
        url: adminPath(ADMIN_ROUTES.disablePerson, { userId }),
        body: undefined,
      }),
    };

    for (const [what, call] of Object.entries(racers))
      it(`the supervisor disables one of the last two administrators while that one ${what}: exactly one wins`, async () => {
        for (let round = 0; round < 3; round++) {
          const location = await createLocation(app);
          const [a, b] = [await createPerson(app, ENROLLED), await createPerson(app, ENROLLED)];
          await link(app, a.id, location.id, 'administrator');
          await link(app, b.id, location.id, 'administrator');
          const asA = await sessionOf(app, clock, a.id);
          const adminCall = call(location.id, b.id);
          const answers = await Promise.all([
            callAs(app, asA, 'POST', adminCall.url, adminCall.body),
            callOps(app, supervisor, 'POST', opsPath(OPS_ROUTES.disablePerson, { userId: a.id }), { reason }),
          ]);
          const statuses = answers.map((res) => res.statusCode);
          expect(
            statuses.filter((s) => s === 200),
            `round ${round}: ${answers.map((r) => r.body).join(' | ')}`,
          ).toHaveLength(1);
          // The loser found the rule (409); or the administrator, disabled meanwhile, lost their session (401) or was
          // no longer a working administrator when the guard looked (404, as to anyone not administering the person).
          for (const res of answers.filter((r) => r.statusCode !== 200)) {
            expect([401, 404, 409], res.body).toContain(res.statusCode);
            if (res.statusCode === 409) expect(res.json().errorMessage).toBe('Last_Administrator');
          }
          expect(await workingAdministrators(location.id)).toHaveLength(1);
        }
      });
  });

  it('the clean-up job deletes console sessions past their idle or absolute limit, and keeps live ones', async () => {
    const idleMs = app.config.ops.idleMs;
    const idle = (await signInOperator(app, 'helpdesk')).client;
    clock.advance(idleMs - 60_000);
    const live = (await signInOperator(app, 'helpdesk')).client;
    const pastAbsolute = (await signInOperator(app, 'helpdesk')).client;
    clock.advance(2 * 60_000);
    // The absolute limit (8 hours by default) is reached by the row's own end, as the session lookup reads it.
    await db()
      .update(opsSessions)
      .set({ expiresAt: clock.now() })
      .where(eq(opsSessions.idHash, hashSessionId(pastAbsolute.cookie!)));
    const hashes = [idle, live, pastAbsolute].map((c) => hashSessionId(c.cookie!));
    const left = async () =>
      (await db().select({ idHash: opsSessions.idHash }).from(opsSessions).where(inArray(opsSessions.idHash, hashes)))
        .map((r) => r.idHash)
        .sort();
    expect(await left()).toHaveLength(3);
    expect(await app.jobs.runOnce(OPS_SESSION_CLEANUP_JOB, { force: true })).toBe(true);
    await expect.poll(left).toEqual([hashSessionId(live.cookie!)]);
    expect((await callOps(app, live, 'GET', OPS_ROUTES.session)).statusCode).toBe(200);
    supervisor = (await signInOperator(app, 'supervisor')).client;
  });
});
