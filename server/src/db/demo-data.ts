import { Faker, en } from '@faker-js/faker';
import { count, eq, sql } from 'drizzle-orm';
import { npiCheckDigit } from '@portal/contracts/identifiers';
import { linesOfBusiness, macJurisdictions, statesOf } from '@portal/contracts/jurisdictions';
import type { Db } from './client';
import { appState, claims, providerLocations } from './schema';

/**
 * Deterministic demo data (docs/requirements/portal.md#demo-data): the same seed and day always give the same rows, so the README's
 * sample NPI/PTAN/TIN combinations work on every fresh install, and benchmarks can generate 1,000,000 locations.
 */
export const DEMO_SEED = 20261122;
/** Claims paid within this many days prove authority (docs/requirements/portal.md#authority-validation); the generator puts claims on both sides. */
export const AUTHORITY_LOOKBACK_DAYS = 90;

const KINDS = [
  'Family Medicine',
  'Medical Group',
  'Cardiology Associates',
  'Orthopedics',
  'Community Hospital',
  'Rehabilitation Center',
  'Imaging Center',
  'Pediatrics',
  'Home Health',
  'Surgical Center',
];
const MBI_LETTERS = 'ACDEFGHJKMNPQRTUVWXY';

export type LocationRow = typeof providerLocations.$inferInsert & { id: string };
export type ClaimRow = typeof claims.$inferInsert;

export interface DemoBatch {
  locations: LocationRow[];
  claims: ClaimRow[];
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function daysBefore(today: string, days: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return isoDay(d);
}

/** UUID v4 shape from the seeded generator, so ids are deterministic too. */
function seededUuid(f: Faker): string {
  const hex = f.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' });
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[f.number.int(3)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function mbi(f: Faker): string {
  const L = () => f.helpers.arrayElement([...MBI_LETTERS]);
  const A = () => f.helpers.arrayElement([...MBI_LETTERS, ...'0123456789']);
  const N = () => String(f.number.int(9));
  return `${f.number.int({ min: 1, max: 9 })}${L()}${A()}${N()}${L()}${A()}${N()}${L()}${L()}${N()}${N()}`;
}

/**
 * Yields rows in batches. Every tenth location shares the previous one's NPI and TIN with its own PTAN
 * (one organisation billing from several practice locations), which the validation flows must handle.
 */
export function* generateDemoData(options: {
  seed?: number;
  locations: number;
  today: string;
  batchSize?: number;
}): Generator<DemoBatch> {
  const f = new Faker({ locale: [en] });
  f.seed(options.seed ?? DEMO_SEED);
  const batchSize = options.batchSize ?? 1000;
  const usedNpis = new Set<string>();
  let batch: DemoBatch = { locations: [], claims: [] };
  let previous: LocationRow | undefined;

  for (let i = 0; i < options.locations; i++) {
    const jurisdiction = f.helpers.arrayElement(macJurisdictions);
    const lineOfBusiness = f.helpers.arrayElement(linesOfBusiness);
    const sibling = previous && i % 10 === 9 ? previous : undefined;
    let npi = sibling?.npi;
    while (!npi || (!sibling && usedNpis.has(npi))) {
      const first9 = `${f.helpers.arrayElement(['1', '2'])}${f.string.numeric({ length: 8, allowLeadingZeros: true })}`;
      npi = `${first9}${npiCheckDigit(first9)}`;
    }
    usedNpis.add(npi);
    const location: LocationRow = {
      id: seededUuid(f),
      npi,
      // Part A PTANs look like 6-digit CCNs; Part B PTANs are alphanumeric. The index keeps them unique.
      ptan:
        lineOfBusiness === 'A'
          ? `${f.string.numeric({ length: 2, allowLeadingZeros: true })}${String(i % 10000).padStart(4, '0')}`
          : `B${f.string.alpha({ length: 2, casing: 'upper' })}${String(i).padStart(7, '0')}`,
      tin: sibling?.tin ?? f.string.numeric({ length: 9, allowLeadingZeros: false }),
      legalName: `${f.person.lastName()} ${f.helpers.arrayElement(KINDS)}${f.helpers.maybe(() => ', LLC', { probability: 0.4 }) ?? ''}`,
      jurisdiction: sibling?.jurisdiction ?? jurisdiction,
      lineOfBusiness,
      state: f.helpers.arrayElement(statesOf(sibling?.jurisdiction ?? jurisdiction)),
      addressLine1: f.location.streetAddress(),
      city: f.location.city(),
      zip: f.location.zipCode('#####'),
      status: 'active',
    };
    batch.locations.push(location);
    previous = location;

    // Three paid claims: two inside the lookback window, one outside it.
    const paidDaysAgo = [
      f.number.int({ min: 1, max: 30 }),
      f.number.int({ min: 31, max: AUTHORITY_LOOKBACK_DAYS - 1 }),
      f.number.int({ min: AUTHORITY_LOOKBACK_DAYS + 1, max: 400 }),
    ];
    paidDaysAgo.forEach((ago, k) => {
      const serial = String(i * 3 + k).padStart(8, '0');
      batch.claims.push({
        locationId: location.id,
        // Part B: 13-digit ICN; Part A: 15-character DCN. The serial keeps them unique.
        claimNumber:
          lineOfBusiness === 'B'
            ? `${f.string.numeric({ length: 5, allowLeadingZeros: true })}${serial}`
            : `${f.string.numeric({ length: 5, allowLeadingZeros: true })}${serial}A${f.string.alpha({ length: 1, casing: 'upper' })}`,
        patientMbi: mbi(f),
        dateOfService: daysBefore(options.today, ago + f.number.int({ min: 7, max: 45 })),
        paidAmount: f.finance.amount({ min: 25, max: 4000, dec: 2 }),
        paidDate: daysBefore(options.today, ago),
        checkNumber: f.helpers.arrayElement(['EFT', 'CHK']) + f.string.numeric({ length: 9, allowLeadingZeros: true }),
      });
    });

    if (batch.locations.length >= batchSize) {
      yield batch;
      batch = { locations: [], claims: [] };
    }
  }
  if (batch.locations.length) yield batch;
}

export interface SeedResult {
  seeded: boolean;
  locations: number;
  claims: number;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Moves every demo claim's dates forward by the days since the data was seeded (or last moved), so the README's
 * combinations still prove authority on a demo started months later: each claim keeps its age relative to today.
 */
async function shiftDemoClaims(tx: Tx | Db, marker: unknown, today: string): Promise<number> {
  const value = marker as { seed?: number; locations?: number; today?: string };
  if (!value.today || value.today >= today) return 0;
  const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${value.today}T00:00:00Z`)) / 86_400_000);
  await tx.execute(
    sql`update claims set paid_date = paid_date + ${days}::int, date_of_service = date_of_service + ${days}::int`,
  );
  await tx
    .update(appState)
    .set({ value: { ...value, today }, updatedAt: new Date() })
    .where(eq(appState.key, 'demo_data'));
  return days;
}

/** Keeps the demo claims' dates relative to today (see shiftDemoClaims); run daily by a job and at every start. */
export async function refreshDemoClaimDates(db: Tx | Db, today: string = isoDay(new Date())): Promise<number> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('portal:demo-data'))`);
  const [marker] = await db.select().from(appState).where(eq(appState.key, 'demo_data'));
  return marker ? shiftDemoClaims(db, marker.value, today) : 0;
}

/** Inserts demo data once: skipped when it was seeded before (recorded in app_state), all-or-nothing otherwise. */
export async function seedDemoData(
  db: Db,
  options: { locations: number; seed?: number; today?: string; reset?: boolean; onProgress?: (done: number) => void },
): Promise<SeedResult> {
  const today = options.today ?? isoDay(new Date());
  return db.transaction(async (tx) => {
    // Serialise concurrent first starts of several instances.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('portal:demo-data'))`);
    const [marker] = await tx.select().from(appState).where(eq(appState.key, 'demo_data'));
    if (marker && !options.reset) {
      await shiftDemoClaims(tx, marker.value, today);
      const [{ value: locations } = { value: 0 }] = await tx.select({ value: count() }).from(providerLocations);
      return { seeded: false, locations, claims: 0 };
    }
    if (options.reset) {
      await tx.delete(claims);
      await tx.delete(providerLocations);
    }
    let locations = 0;
    let claimCount = 0;
    for (const batch of generateDemoData({
      seed: options.seed,
      locations: options.locations,
      today,
      batchSize: 2000,
    })) {
      await tx.insert(providerLocations).values(batch.locations);
      await tx.insert(claims).values(batch.claims);
      locations += batch.locations.length;
      claimCount += batch.claims.length;
      options.onProgress?.(locations);
    }
    const value = { seed: options.seed ?? DEMO_SEED, locations, today };
    await tx
      .insert(appState)
      .values({ key: 'demo_data', value })
      .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: new Date() } });
    return { seeded: true, locations, claims: claimCount };
  });
}
