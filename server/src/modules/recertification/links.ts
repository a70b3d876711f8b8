import { and, eq, inArray, isNull } from 'drizzle-orm';
import { linkInForce } from '../../db/links';
import { providerLocations, userLocations, users } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import { DAY_MS } from '@portal/contracts/time';

/** How long before `certified_until` administrators see a link as due and are reminded. */
export const DUE_WITHIN_DAYS = 45;
/** Reminder thresholds, in days before `certified_until`; each is sent once per link and date. */
export const REMINDER_DAYS = [45, 30, 15, 7, 1] as const;

/** Whole days from `now` to `until`, rounded up (a link due in 36 hours is due in 2 days). */
export function daysLeft(until: Date, now: Date): number {
  return Math.ceil((until.getTime() - now.getTime()) / DAY_MS);
}

/** The threshold a link `days` days from its date has reached: the smallest reminder day it is within. */
export function reminderThreshold(days: number): number | undefined {
  return [...REMINDER_DAYS].reverse().find((threshold) => days <= threshold);
}

/**
 * The current administrators of the locations (docs/decisions/0041): an `administrator` link in force at `now`
 * (db/links.ts: active and not past its `certified_until`), of an active account, on a location whose access is not
 * suspended.
 */
export async function currentAdministrators(
  db: DbExecutor,
  locationIds: string[],
  now: Date,
): Promise<{ userId: string; locationId: string; email: string; firstName: string }[]> {
  if (!locationIds.length) return [];
  return db
    .select({
      userId: userLocations.userId,
      locationId: userLocations.locationId,
      email: users.email,
      firstName: users.firstName,
    })
    .from(userLocations)
    .innerJoin(users, eq(users.id, userLocations.userId))
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .where(
      and(
        inArray(userLocations.locationId, locationIds),
        eq(userLocations.role, 'administrator'),
        linkInForce(now),
        eq(users.status, 'active'),
        isNull(providerLocations.accessSuspendedAt),
      ),
    );
}

/** A location as emails name it. */
export function locationLabel(location: { legalName: string; npi: string }): string {
  return `${location.legalName} (NPI ${location.npi})`;
}

/** Groups items by a key, keeping their order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
