import type { LocationIdentifiers } from '@portal/contracts/access-requests';
import { and, eq } from 'drizzle-orm';
import type { DbExecutor } from '../platform/db-executor';
import { providerLocations } from './schema';

/** The parsed identifiers (`tin` without its dash) of a provider location. */
type Identifiers = Pick<LocationIdentifiers, 'npi' | 'ptan' | 'tin' | 'jurisdiction' | 'lineOfBusiness'>;

/**
 * The active provider location the person named by NPI + PTAN + TIN in a jurisdiction and line of business, or
 * undefined (whichever identifier was wrong: callers answer one non-revealing code). The unique (npi, ptan, line of
 * business) index answers it with one index probe, whatever the table size. Shared by the administrator's provider
 * step and the end user's access requests.
 */
export async function activeLocationByIdentifiers(db: DbExecutor, ids: Identifiers) {
  const [location] = await db
    .select()
    .from(providerLocations)
    .where(
      and(
        eq(providerLocations.npi, ids.npi),
        eq(providerLocations.ptan, ids.ptan),
        eq(providerLocations.lineOfBusiness, ids.lineOfBusiness),
        eq(providerLocations.tin, ids.tin),
        eq(providerLocations.jurisdiction, ids.jurisdiction),
        eq(providerLocations.status, 'active'),
      ),
    )
    .limit(1);
  return location;
}
