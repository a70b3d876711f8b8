import { randomInt } from 'node:crypto';
import { asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { accessRequests, outbox, providerLocations, userLocations, users } from '../../src/db/schema';

/** Recertification fixtures on a bare database (the jobs run without an app; support/staff.ts is the app-level kind) (docs/requirements/staff-accounts.md): locations, people and their links, made in the tables. */

export async function makeLocation(db: Db, legalName: string): Promise<string> {
  const [row] = await db
    .insert(providerLocations)
    .values({
      npi: String(1_000_000_000 + randomInt(999_999_999)),
      ptan: `P${randomInt(99999)}`,
      tin: '123456789',
      legalName,
      jurisdiction: 'J5',
      lineOfBusiness: 'B',
      state: 'IA',
      addressLine1: '1 Main St',
      city: 'Ames',
      zip: '50010',
    })
    .returning({ id: providerLocations.id });
  return row!.id;
}

export async function makePerson(
  db: Db,
  username: string,
  extra: Partial<typeof users.$inferInsert> = {},
): Promise<{ id: string; email: string }> {
  const [row] = await db
    .insert(users)
    .values({
      username,
      email: `${username}@example.com`,
      firstName: username.split('.')[0]!,
      lastName: 'Tester',
      dob: '1980-01-01',
      passwordHash: 'x',
      status: 'active',
      ...extra,
    })
    .returning({ id: users.id, email: users.email });
  return row!;
}

export async function link(
  db: Db,
  userId: string,
  locationId: string,
  role: 'administrator' | 'user',
  certifiedUntil: Date,
): Promise<void> {
  await db.insert(userLocations).values({ userId, locationId, role, certifiedUntil });
}

export async function requestAccess(db: Db, userId: string, locationId: string, at: Date): Promise<string> {
  const [row] = await db
    .insert(accessRequests)
    .values({ userId, locationId, createdAt: at, updatedAt: at })
    .returning({ id: accessRequests.id });
  return row!.id;
}

/** The queued emails (oldest first), optionally only those of one template, then forgotten by `clearOutbox`. */
export async function outboxMail(db: Db, template?: string) {
  const rows = await db.select().from(outbox).where(isNull(outbox.sentAt)).orderBy(asc(outbox.createdAt));
  return rows.filter((row) => !template || row.template === template);
}

export async function clearOutbox(db: Db): Promise<void> {
  await db.update(outbox).set({ sentAt: new Date() }).where(isNull(outbox.sentAt));
}

export async function linkOf(db: Db, userId: string, locationId: string) {
  const rows = await db.select().from(userLocations).where(eq(userLocations.userId, userId));
  return rows.find((row) => row.locationId === locationId);
}
