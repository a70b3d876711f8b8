import { ACCOUNT_ROUTES } from '@portal/contracts/account';
import { DDE_SUBMIT_PATH, GET_EASI_PATH } from '@portal/contracts/dde-access';
import { FIND_ADMIN_PATH } from '@portal/contracts/find-admin';
import { npiCheckDigit } from '@portal/contracts/identifiers';
import { ADMIN_ROUTES, adminPath } from '@portal/contracts/paths';
import { RECERTIFICATIONS_PATH } from '@portal/contracts/recertification';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddeRequests, invitations, providerLocations, userLocations } from '../src/db/schema';
import { RECERTIFICATION_SUSPENSION_JOB } from '../src/modules/recertification/jobs';
import { ADMIN_API_PREFIX } from '../src/identity/admin-guard';
import { buildTestApp, callAs, testClock } from './helpers';
import { createLocation, createPerson, link, requestAccess, sessionOf } from './factories';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A person–location link grants nothing once its `certified_until` has passed by the app's clock, before the hourly
 * suspension job has marked it `suspended` (docs/decisions/0044-link-in-force.md): the admin guard, DDE access, My
 * account's locations and find-my-administrator read one condition (server/src/db/links.ts). The job then only does
 * the bookkeeping. An administrator with another person's link overdue is still taken to the recertification screen.
 */
describe('a link stops granting at its date, not at the next suspension run', () => {
  const clock = testClock();
  const adminRoutes: { method: 'GET' | 'POST'; url: string }[] = [];
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      clock: clock.now,
      onRoute(route: RouteOptions) {
        for (const method of [route.method].flat())
          if (route.url.startsWith(ADMIN_API_PREFIX) && (method === 'GET' || method === 'POST'))
            adminRoutes.push({ method: method as 'GET' | 'POST', url: route.url });
      },
    }));
  });
  afterAll(async () => app?.close());

  const inAYear = () => new Date(clock.now().getTime() + 365 * DAY_MS);

  /** A location where `person`'s link (of `role`) ends in an hour, and `keeper`, an administrator certified for a year. */
  async function lapsingLink(role: 'administrator' | 'user') {
    const location = await createLocation(app);
    const person = await createPerson(app);
    await link(app, person.id, location.id, role, { certifiedUntil: new Date(clock.now().getTime() + HOUR_MS) });
    const keeper = await createPerson(app);
    await link(app, keeper.id, location.id, 'administrator', { certifiedUntil: inAYear() });
    return { location, person, keeper };
  }

  /** The link's row: the suspension job has not run, so it still says `active`. */
  const linkStatus = async (userId: string, locationId: string) =>
    (
      await app.database.db
        .select({ status: userLocations.status })
        .from(userLocations)
        .where(and(eq(userLocations.userId, userId), eq(userLocations.locationId, locationId)))
    )[0]?.status;

  it('an administrator whose own link passed its date gets 404 from every /api/admin route', async () => {
    const { location, person: admin, keeper } = await lapsingLink('administrator');
    const member = await createPerson(app);
    await link(app, member.id, location.id, 'user', { certifiedUntil: inAYear() });
    const request = await requestAccess(app, (await createPerson(app)).id, location.id);
    const [invitation] = await app.database.db
      .insert(invitations)
      .values({
        tokenHash: 'e'.repeat(64),
        locationId: location.id,
        invitedBy: keeper.id,
        email: 'invited.in.force@example.com',
        role: 'user',
        expiresAt: new Date(clock.now().getTime() + 7 * DAY_MS),
      })
      .returning();
    const ids: Record<string, string> = {
      locationId: location.id,
      userId: member.id,
      requestId: request.id,
      invitationId: invitation!.id,
    };
    const before = await sessionOf(app, clock, admin.id);
    expect((await callAs(app, before, 'GET', ADMIN_ROUTES.people)).statusCode).toBe(200);

    clock.advance(2 * HOUR_MS);
    const caller = await sessionOf(app, clock, admin.id);
    expect(adminRoutes.length).toBeGreaterThanOrEqual(11);
    const answers: string[] = [];
    for (const route of adminRoutes) {
      const url = adminPath(route.url, ids);
      const calls = [`${url}?locationId=${location.id}`, ...(url === route.url ? [url] : [])];
      for (const call of calls) {
        const res = await callAs(app, caller, route.method, call, { locationId: location.id });
        answers.push(`${route.method} ${call} ${res.statusCode} ${res.body}`);
      }
    }
    const refused = (answer: string) =>
      answer.replace(/ \d{3} .*$/, ` 404 ${JSON.stringify({ errorMessage: 'Not_Found' })}`);
    expect(answers).toEqual(answers.map(refused));
    expect(await linkStatus(admin.id, location.id)).toBe('active');

    // The other administrator still administers the location and is taken to the recertification screen: another
    // person's link is overdue (the forced screen, kept, and held by the API too). The recertification lists the lapsed
    // link as overdue; the rest of the console waits for it.
    const keeperClient = await sessionOf(app, clock, keeper.id);
    expect((await callAs(app, keeperClient, 'GET', '/api/session')).json().data).toMatchObject({
      administersLocation: true,
      recertificationOverdue: true,
    });
    const due = await callAs(app, keeperClient, 'GET', RECERTIFICATIONS_PATH);
    expect(due.json().data.links).toMatchObject([{ userId: admin.id, locationId: location.id, overdue: true }]);
    const held = await callAs(app, keeperClient, 'GET', adminPath(ADMIN_ROUTES.person, { userId: admin.id }));
    expect(held.statusCode).toBe(403);
    expect(held.json().errorMessage).toBe('Recertification_Overdue');

    // The job's bookkeeping comes later and changes nothing of the answers.
    expect(await app.jobs.runOnce(RECERTIFICATION_SUSPENSION_JOB, { force: true })).toBe(true);
    expect(await linkStatus(admin.id, location.id)).toBe('suspended');
    expect((await callAs(app, caller, 'GET', ADMIN_ROUTES.people)).statusCode).toBe(404);
  });

  it("the session's staff flags follow the app's clock from one call to the next", async () => {
    // GET /api/session reads the flags in one statement prepared at its first run (docs/decisions/0020): the clock is
    // each call's own, so a link that lapses between two calls changes the second answer.
    const { person: admin, keeper } = await lapsingLink('administrator');
    const flags = async (userId: string) =>
      (await callAs(app, await sessionOf(app, clock, userId), 'GET', '/api/session')).json().data;
    expect(await flags(admin.id)).toMatchObject({ administersLocation: true, recertificationOverdue: false });
    expect(await flags(keeper.id)).toMatchObject({ administersLocation: true, recertificationOverdue: false });

    clock.advance(2 * HOUR_MS);
    expect(await flags(admin.id)).toMatchObject({ loggedIn: true, administersLocation: false });
    expect(await flags(keeper.id)).toMatchObject({ administersLocation: true, recertificationOverdue: true });
  });

  it('a user cannot choose a location whose link passed its date in DDE access, nor sees it on My account', async () => {
    const { location, person } = await lapsingLink('user');
    const other = await createLocation(app, { legalName: 'Zinnia Clinic (still certified)' });
    await link(app, person.id, other.id, 'user', { certifiedUntil: inAYear() });
    const easiIds = async (client: Awaited<ReturnType<typeof sessionOf>>) =>
      (await callAs(app, client, 'POST', GET_EASI_PATH, {}))
        .json()
        .data.locations.map((l: { locationId: string }) => l.locationId);
    expect((await easiIds(await sessionOf(app, clock, person.id))).sort()).toEqual([location.id, other.id].sort());

    clock.advance(2 * HOUR_MS);
    const client = await sessionOf(app, clock, person.id);
    expect(await easiIds(client)).toEqual([other.id]);
    const chosen = await callAs(app, client, 'POST', GET_EASI_PATH, { locationId: location.id });
    expect(chosen.statusCode).toBe(403);
    expect(chosen.json()).toEqual({ errorMessage: 'Dde_Location_Not_Linked' });
    const submitted = await callAs(app, client, 'POST', DDE_SUBMIT_PATH, {
      idempotencyKey: randomUUID(),
      locationId: location.id,
      requestType: 'new',
      ddeAccessType: 'inquiry',
      submitterId: 'X1',
      networkServiceVendor: 'Vendor',
    });
    expect(submitted.statusCode).toBe(403);
    expect(submitted.json()).toEqual({ errorMessage: 'Dde_Location_Not_Linked' });
    expect(await app.database.db.select().from(ddeRequests).where(eq(ddeRequests.requesterId, person.id))).toEqual([]);

    const account = await callAs(app, client, 'GET', ACCOUNT_ROUTES.account);
    expect(account.json().data.locations.map((l: { legalName: string }) => l.legalName)).toEqual([other.legalName]);
    expect(await linkStatus(person.id, location.id)).toBe('active');
  });

  it('find my administrator names only administrators whose link is in force', async () => {
    const { location, person: lapsed, keeper } = await lapsingLink('administrator');
    // Identifiers the lookup's schema accepts (a valid NPI check digit, an upper-case PTAN).
    const first9 = String(400_000_000 + Math.floor(Math.random() * 99_999_999));
    const npi = `${first9}${npiCheckDigit(first9)}`;
    const ptan = `F${first9.slice(-7)}`;
    await app.database.db.update(providerLocations).set({ npi, ptan }).where(eq(providerLocations.id, location.id));
    const lookup = () =>
      callAs(app, { ip: `10.44.0.${Math.floor(Math.random() * 250) + 1}` }, 'POST', FIND_ADMIN_PATH, {
        npi,
        ptan,
        tin: location.tin,
      });
    const names = async () =>
      (await lookup())
        .json()
        .data.administrators.map((a: { lastName: string }) => a.lastName)
        .sort();
    expect(await names()).toEqual([lapsed.lastName, keeper.lastName].sort());
    clock.advance(2 * HOUR_MS);
    expect(await names()).toEqual([keeper.lastName]);
  });
});
