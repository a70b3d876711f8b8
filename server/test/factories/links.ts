import { eq } from 'drizzle-orm';
import { userLocations } from '../../src/db/schema';
import { dbOf, type FactoryTarget } from './target';

/** Links between people and locations, made in the table. */

export type Link = typeof userLocations.$inferSelect;

/** Links a person to a location with a role (active, certified for the table's default year unless `values` say). */
export async function link(
  target: FactoryTarget,
  userId: string,
  locationId: string,
  role: 'administrator' | 'user',
  values: Partial<typeof userLocations.$inferInsert> = {},
): Promise<Link> {
  const [row] = await dbOf(target)
    .insert(userLocations)
    .values({ userId, locationId, role, ...values })
    .returning();
  return row!;
}

/** The person's link to the location as the table holds it now (undefined when none). */
export async function linkOf(target: FactoryTarget, userId: string, locationId: string): Promise<Link | undefined> {
  const rows = await dbOf(target).select().from(userLocations).where(eq(userLocations.userId, userId));
  return rows.find((row) => row.locationId === locationId);
}
