import type { LocationIdentifiers } from '@portal/contracts/access-requests';
import { and, eq, gt, isNull, or, type SQL } from 'drizzle-orm';
import type { DbExecutor } from '../platform/db-executor';
import { providerLocations } from './schema';

/** The columns that name a provider location in a list: its identifiers, name, jurisdiction and line of business. */
export const locationSummaryColumns = {
  locationId: providerLocations.id,
  legalName: providerLocations.legalName,
  npi: providerLocations.npi,
  ptan: providerLocations.ptan,
  jurisdiction: providerLocations.jurisdiction,
  lineOfBusiness: providerLocations.lineOfBusiness,
};

/** The parsed identifiers (`tin` without its dash) of a provider location. */
type Identifiers = Pick<LocationIdentifiers, 'npi' | 'ptan' | 'tin' | 'jurisdiction' | 'lineOfBusiness'>;

/** `date` as the UTC calendar day the feeds' end dates are written in. */
const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A provider location in force on `now`'s day: active, and not end-dated by the provider-enrollment feed on or before
 * that day (docs/requirements/data-feeds.md#end-dated-locations). An ended location cannot be validated, has no
 * find-admin answer and takes no DDE request; its people keep their accounts.
 */
export function locationInForce(now: Date): SQL {
  return and(
    eq(providerLocations.status, 'active'),
    or(isNull(providerLocations.endDate), gt(providerLocations.endDate, utcDay(now))),
  )!;
}

/** The same rule as locationInForce, for a row already read. */
export function locationIsInForce(location: { status: string; endDate: string | null }, now: Date): boolean {
  return location.status === 'active' && (location.endDate === null || location.endDate > utcDay(now));
}

/**
 * The active provider location the person named by NPI + PTAN + TIN in a jurisdiction and line of business, or
 * undefined (whichever identifier was wrong: callers answer one non-revealing code). The unique (npi, ptan, line of
 * business) index answers it with one index probe, whatever the table size. Shared by the administrator's provider
 * step and the end user's access requests.
 */
export async function activeLocationByIdentifiers(db: DbExecutor, ids: Identifiers, now: Date = new Date()) {
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
        locationInForce(now),
      ),
    )
    .limit(1);
  return location;
}
