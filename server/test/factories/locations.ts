import { npiCheckDigit } from '@portal/contracts/identifiers';
import { providerLocations } from '../../src/db/schema';
import { dbOf, type FactoryTarget } from './target';

/** Provider locations (docs/requirements/staff-accounts.md), made in the table. */

export type Location = typeof providerLocations.$inferSelect;

let locationSerial = 100_000_000;

/**
 * A J5 Part B provider location in Ames, IA with identifiers of its own: an NPI with a valid check digit, a PTAN and a
 * TIN made from the same serial, and the legal name `Clinic <serial>`; `values` replace any column. Answers the row.
 */
export async function createLocation(
  target: FactoryTarget,
  values: Partial<typeof providerLocations.$inferInsert> = {},
): Promise<Location> {
  const first9 = String(++locationSerial);
  const [row] = await dbOf(target)
    .insert(providerLocations)
    .values({
      npi: `${first9}${npiCheckDigit(first9)}`,
      ptan: `P${first9.slice(-7)}`,
      tin: `98${first9.slice(-7)}`,
      legalName: `Clinic ${first9}`,
      jurisdiction: 'J5',
      lineOfBusiness: 'B',
      state: 'IA',
      addressLine1: '1 Main St',
      city: 'Ames',
      zip: '50010',
      ...values,
    })
    .returning();
  return row!;
}

/** The location's identifiers as the registration and access-request forms send them: the TIN typed with its dash. */
export function locationIdentifiers(l: Pick<Location, 'npi' | 'ptan' | 'tin' | 'jurisdiction' | 'lineOfBusiness'>) {
  return {
    npi: l.npi,
    ptan: l.ptan,
    tin: `${l.tin.slice(0, 2)}-${l.tin.slice(2)}`,
    jurisdiction: l.jurisdiction,
    lineOfBusiness: l.lineOfBusiness,
  };
}
