import { ADMIN_INVITATIONS_PATH } from '@portal/contracts/invitations';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, invitations } from '../src/db/schema';
import { buildTestApp, callAs, otherSession, testClock, testConfig, type TestClient } from './helpers';
import { createAccount, link } from './factories';
import { createLocation } from './factories';

/**
 * The hourly invitation limits (docs/requirements/staff-accounts.md#invitations): per client address (the route), and
 * per administrator and per location (the service), so a second address with the same session gains nothing.
 */
describe('invitations: limited per client address, per administrator and per location each hour', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let locationX: string;
  let locationY: string;
  let n = 0;

  /** An administrator of `locationIds` with a fresh session from `ip`. */
  async function administrator(ip: string, ...locationIds: string[]): Promise<TestClient & { id: string }> {
    const user = await createAccount(app, `inv.limit${++n}`);
    for (const locationId of locationIds) await link(app, user.id, locationId, 'administrator');
    return { ...(await otherSession(app, clock, user.id, { ip })), id: user.id };
  }

  const invite = (admin: TestClient, locationId: string) =>
    callAs(app, admin, 'POST', ADMIN_INVITATIONS_PATH, {
      locationId,
      email: `invitee${++n}@example.com`,
      role: 'user',
    });

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now, config: testConfig({ INVITATIONS_PER_HOUR: '3' }) }));
    locationX = (await createLocation(app)).id;
    locationY = (await createLocation(app)).id;
  });
  afterAll(() => app.close());

  it('one administrator: the limit holds whichever address the same session sends from (two addresses)', async () => {
    const admin = await administrator('10.61.0.1', locationX);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await invite(admin, locationX)).statusCode);
    // The route's per-address limit is spent on the first address; the session moves to a second one.
    statuses.push((await invite(admin, locationX)).statusCode);
    admin.ip = '198.51.100.61';
    const moved = await invite(admin, locationX);
    statuses.push(moved.statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(moved.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
    expect(Number(moved.headers['retry-after'])).toBeGreaterThan(50 * 60);
    const sent = await app.database.db.select().from(invitations).where(eq(invitations.invitedBy, admin.id));
    expect(sent).toHaveLength(3);
    const refused = await app.database.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'invitation.sent'),
          eq(auditEvents.actor, admin.id),
          eq(auditEvents.outcome, 'failure'),
        ),
      );
    expect(refused.map((e) => e.details)).toContainEqual(expect.objectContaining({ reason: 'administrator_limit' }));
  });

  it("the location's limit holds whichever administrator sends; their other location is not affected", async () => {
    // Location X has had its 3 this hour (the test above): a co-administrator from yet another address is refused.
    const coAdmin = await administrator('203.0.113.61', locationX, locationY);
    const refused = await invite(coAdmin, locationX);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
    expect((await invite(coAdmin, locationY)).statusCode).toBe(200);
    const toX = await app.database.db.select().from(invitations).where(eq(invitations.locationId, locationX));
    expect(toX).toHaveLength(3);
  });
});
