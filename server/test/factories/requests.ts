import { accessRequests } from '../../src/db/schema';
import { dbOf, type FactoryTarget } from './target';

/** Access requests of people to locations, made in the table. */

export type AccessRequest = typeof accessRequests.$inferSelect;

/** A pending access request of a person to a location, made `at` (default: the database's now). */
export async function requestAccess(
  target: FactoryTarget,
  userId: string,
  locationId: string,
  { at, ...values }: Partial<typeof accessRequests.$inferInsert> & { at?: Date } = {},
): Promise<AccessRequest> {
  const [row] = await dbOf(target)
    .insert(accessRequests)
    .values({ userId, locationId, ...(at ? { createdAt: at, updatedAt: at } : {}), ...values })
    .returning();
  return row!;
}
