import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { accessRequests, providerLocations, userLocations, users } from '../../src/db/schema';
import { createSession } from '../../src/identity/sessions/store';
import type { TestClient, TestClock } from '../helpers';
import { otherSession } from '../helpers';

/**
 * People, locations and links for the staff-accounts tests, written straight to the tables (no password hashing: the
 * sessions are made in the table too, as `otherSession` does). Every name is unique per call.
 */

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A provider location with a unique NPI/PTAN. */
export async function createLocation(app: FastifyInstance, legalName = `Clinic ${unique()}`) {
  const n = String(1_000_000_000 + Math.floor(Math.random() * 8_999_999_999)).slice(0, 10);
  const [location] = await app.database.db
    .insert(providerLocations)
    .values({
      npi: n,
      ptan: `P${unique()}`.slice(0, 10),
      tin: '123456789',
      legalName,
      jurisdiction: 'J5',
      lineOfBusiness: 'B',
      state: 'IA',
      addressLine1: '1 Main St',
      city: 'Des Moines',
      zip: '50309',
    })
    .returning();
  return location!;
}

/** An active person (no usable password: tests give them sessions directly). */
export async function createPerson(
  app: FastifyInstance,
  extra: Partial<typeof users.$inferInsert> & { username?: string } = {},
) {
  const username = extra.username ?? `person.${unique()}`;
  const [user] = await app.database.db
    .insert(users)
    .values({
      username,
      email: `${username}@example.com`,
      firstName: 'Pat',
      lastName: `Tester ${unique()}`,
      dob: '1980-01-01',
      passwordHash: 'not-a-hash',
      status: 'active',
      mfaEnrolledAt: new Date('2026-01-01T00:00:00Z'),
      ...extra,
    })
    .returning();
  return user!;
}

/** Links a person to a location with a role. */
export async function link(
  app: FastifyInstance,
  userId: string,
  locationId: string,
  role: 'administrator' | 'user',
  extra: Partial<typeof userLocations.$inferInsert> = {},
) {
  await app.database.db.insert(userLocations).values({ userId, locationId, role, ...extra });
}

/** A pending access request of a person to a location. */
export async function requestAccess(app: FastifyInstance, userId: string, locationId: string) {
  const [row] = await app.database.db.insert(accessRequests).values({ userId, locationId }).returning();
  return row!;
}

/** A logged-in, freshly authenticated client of the person. */
export function sessionOf(app: FastifyInstance, clock: TestClock, userId: string): Promise<TestClient> {
  return otherSession(app, clock, userId, { ip: `10.9.${counter++ % 250}.${(counter++ % 250) + 1}` });
}

/** A logged-in client whose login is `minutesAgo` old (active just now): past 20 minutes it must re-authenticate. */
export async function staleSessionOf(
  app: FastifyInstance,
  clock: TestClock,
  userId: string,
  minutesAgo: number,
): Promise<TestClient> {
  const now = clock.now();
  const id = await createSession(app.database.db, {
    userId,
    stage: 'active',
    now,
    limits: app.config.sessions,
    authenticatedAt: new Date(now.getTime() - minutesAgo * 60_000),
  });
  return { ip: '10.8.0.1', cookie: id };
}

/** A UUID nothing carries. */
export const unknownId = () => randomUUID();
