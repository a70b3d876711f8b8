import { and, eq, sql } from 'drizzle-orm';
import { userLocations } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';

/** Whether the location already has an administrator (a pending registration holds it too, until it expires). */
export async function hasAdministrator(db: DbExecutor, locationId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: userLocations.userId })
    .from(userLocations)
    .where(and(eq(userLocations.locationId, locationId), eq(userLocations.role, 'administrator')))
    .limit(1);
  return rows.length > 0;
}

/**
 * Takes the location's row lock for the rest of the transaction: the registration steps that decide something about a
 * location (an authority attempt, the account it gets) are serialised per location, never across locations.
 */
export async function lockLocation(tx: DbExecutor, locationId: string): Promise<void> {
  await tx.execute(sql`select id from provider_locations where id = ${locationId} for update`);
}
