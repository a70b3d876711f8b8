import { and, eq, sql } from 'drizzle-orm';
import { linkInForceColumn } from '../../db/links';
import { userLocations } from '../../db/schema';
import { administeredLocations, type AdminGrant } from '../../platform/admin-guard';
import type { DbExecutor } from '../../platform/db-executor';

/**
 * The locations a guarded call may read: the one the guard established (`?locationId`), else every location the
 * caller administers at `now` (the app's clock). A subquery, so each list's SQL is scoped by construction
 * (docs/decisions/0039-admin-guard.md).
 */
export function adminLocations(db: DbExecutor, grant: AdminGrant, now: Date) {
  return grant.locationId ? [grant.locationId] : administeredLocations(db, grant.actorId, now);
}

/**
 * Serialises the changes to a location's people (docs/decisions/0039-admin-guard.md): takes the location's row lock,
 * then reads its administrator links `FOR UPDATE`, each with whether it is in force at `now` (the app's clock,
 * db/links.ts). The location row is what makes the rules hold: `FOR UPDATE` on the links alone would not stop a
 * concurrent transaction from adding a sixth administrator (a row it does not lock), and under READ COMMITTED the read
 * after the lock sees every change committed before it.
 */
export async function lockAdministrators(
  tx: DbExecutor,
  locationId: string,
  now: Date,
): Promise<{ userId: string; inForce: boolean }[]> {
  await tx.execute(sql`select id from provider_locations where id = ${locationId} for update`);
  return tx
    .select({ userId: userLocations.userId, inForce: linkInForceColumn(now) })
    .from(userLocations)
    .where(and(eq(userLocations.locationId, locationId), eq(userLocations.role, 'administrator')))
    .for('update');
}
