import { Faker, en } from '@faker-js/faker';
import { count, eq, sql } from 'drizzle-orm';
import { npiCheckDigit } from '@portal/contracts/identifiers';
import { linesOfBusiness, macJurisdictions, statesOf } from '@portal/contracts/jurisdictions';
import type { Db } from './client';
import { appState, claims, ediEnrollments, providerLocations } from './schema';

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
export type EdiEnrollmentRow = typeof ediEnrollments.$inferInsert;

export interface DemoBatch {
  locations: LocationRow[];
  claims: ClaimRow[];
  ediEnrollments: EdiEnrollmentRow[];
}

/** Fictional network service vendors of the demo enrollments. */
const DEMO_VENDORS = ['Northwind Network Services', 'Contoso Claims Connect', 'Fabrikam EDI Gateway'];

/**
 * The EDI/DDE enrollment of the i-th demo location (docs/requirements/portal.md#dde-access-request), worked out from
 * the index alone so the seeded random sequence (and every other demo row) stays as it was. Every fifth location has
 * none on file, so the DDE form's empty start can be tried too.
 */
function demoEnrollment(location: LocationRow, i: number): EdiEnrollmentRow | undefined {
  if (i % 5 === 4) return undefined;
  return {
    locationId: location.id,
    submitterId: `${location.jurisdiction}${location.lineOfBusiness}${String(i).padStart(7, '0')}`,
    networkServiceVendor: DEMO_VENDORS[i % DEMO_VENDORS.length]!,
    ddeAccessType: i % 2 === 0 ? 'inquiry-and-claims' : 'inquiry',
    status: i % 7 === 6 ? 'pending' : 'active',
  };
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
  let batch: DemoBatch = { locations: [], claims: [], ediEnrollments: [] };
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
    const enrollment = demoEnrollment(location, i);
    if (enrollment) batch.ediEnrollments.push(enrollment);

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
      batch = { locations: [], claims: [], ediEnrollments: [] };
    }
  }
  if (batch.locations.length) yield batch;
}

/** Locations made one by one with realistic names and addresses; beyond these, PostgreSQL generates them in bulk. */
export const DETAILED_LOCATIONS = 1000;
const BULK_CHUNK = 20_000;

/**
 * Locations `from`..`to - 1` and three claims each, generated by PostgreSQL itself (generate_series), so a
 * benchmark's 1,000,000 locations take seconds, not the faker generator's minutes. Deterministic from the index and
 * seed: md5-derived ids and patient numbers, Luhn-valid NPIs (prefix 3, a permutation of the index, so they never
 * meet the detailed locations' 1/2 prefixes), PTANs and claim numbers unique by construction, and the same claim
 * ages as the detailed generator (two paid within the lookback, one older).
 */
/**
 * The Luhn sum of the NPI prefix 80840 plus the first nine digits, as SQL terms: the prefix adds 24; of the nine
 * digits the 1st, 3rd, 5th, 7th and 9th are doubled (the check digit will follow them).
 */
const LUHN_TERMS = Array.from({ length: 9 }, (_, k) =>
  k % 2 === 0
    ? ` + (array[0, 2, 4, 6, 8, 1, 3, 5, 7, 9])[substr(first9, ${k + 1}, 1)::int + 1]`
    : ` + substr(first9, ${k + 1}, 1)::int`,
).join('');

/** A version-4-shaped UUID from the md5 of seed and index (ids elsewhere are checked as RFC UUIDs). */
const bulkLocationId = (seed: number) =>
  sql`overlay(overlay(md5(${seed}::text || ':location:' || i) placing '4' from 13) placing '8' from 17)::uuid`;

async function insertBulkLocations(tx: Tx, o: { from: number; to: number; seed: number; today: string }) {
  await tx.execute(sql`
    with n as (
      select i, abs(hashtext(${o.seed}::text || ':' || i)) as h,
        '3' || lpad(((i::bigint * 48271) % 100000000)::text, 8, '0') as first9
      from generate_series(${o.from}::int, ${o.to - 1}::int) as i
    )
    insert into provider_locations (id, npi, ptan, tin, legal_name, jurisdiction, line_of_business, state,
      address_line1, city, zip, status)
    select ${bulkLocationId(o.seed)},
      first9 || ((10 - (24${sql.raw(LUHN_TERMS)}) % 10) % 10)::text,
      case when h % 2 = 0 then 'A' else 'B' end || lpad(i::text, 9, '0'),
      (100000000 + (i::bigint * 2654435761) % 900000000)::text,
      (array['North', 'South', 'East', 'West', 'Central', 'Valley', 'Lakeside', 'Summit'])[1 + h % 8] || ' '
        || (array['Family Medicine', 'Medical Group', 'Cardiology Associates', 'Orthopedics', 'Imaging Center'])[1 + (h / 8) % 5]
        || ' ' || i,
      (case when (h / 64) % 2 = 0 then 'J5' else 'J8' end)::jurisdiction,
      (case when h % 2 = 0 then 'A' else 'B' end)::line_of_business,
      case when (h / 64) % 2 = 0 then (array['IA', 'KS', 'MO', 'NE'])[1 + (h / 128) % 4]
           else (array['IN', 'MI'])[1 + (h / 128) % 2] end,
      (1 + h % 9000) || ' Main Street', 'Springfield', lpad((h % 100000)::text, 5, '0'), 'active'
    from n`);
  await tx.execute(sql`
    with n as (
      select i, k, abs(hashtext(${o.seed}::text || ':claim:' || i || ':' || k)) as h,
        (case k when 0 then 1 + i % 30 when 1 then 31 + i % 59 else 91 + i % 300 end) as paid_ago,
        i::bigint * 3 + k as serial
      from generate_series(${o.from}::int, ${o.to - 1}::int) as i, generate_series(0, 2) as k
    ), letters as (select 'ACDEFGHJKMNPQRTUVWXY' as l, 'ACDEFGHJKMNPQRTUVWXY0123456789' as a)
    insert into claims (location_id, claim_number, patient_mbi, date_of_service, paid_amount, paid_date, check_number)
    select ${bulkLocationId(o.seed)},
      '9' || lpad(serial::text, 12, '0'),
      (1 + h % 9)::text || substr(l, 1 + (h / 9) % 20, 1) || substr(a, 1 + (h / 180) % 30, 1) || ((h / 7) % 10)::text
        || substr(l, 1 + (h / 11) % 20, 1) || substr(a, 1 + (h / 13) % 30, 1) || ((h / 17) % 10)::text
        || substr(l, 1 + (h / 19) % 20, 1) || substr(l, 1 + (h / 23) % 20, 1) || lpad(((h / 29) % 100)::text, 2, '0'),
      ${o.today}::date - paid_ago - (7 + h % 39),
      (25 + (h % 397500) / 100.0)::numeric(12, 2),
      ${o.today}::date - paid_ago,
      'EFT' || lpad(serial::text, 9, '0')
    from n, letters`);
}

/**
 * Locations `from`..`to - 1` (and their claims) made in bulk by PostgreSQL, in one transaction: what the demo adds
 * beyond its sample feed files when SEED_LOCATIONS asks for more (benchmarks).
 */
export async function seedBulkDemoLocations(db: Db, o: { from: number; to: number; seed?: number; today: string }) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    for (let from = o.from; from < o.to; from += BULK_CHUNK)
      await insertBulkLocations(tx, {
        from,
        to: Math.min(from + BULK_CHUNK, o.to),
        seed: o.seed ?? DEMO_SEED,
        today: o.today,
      });
  });
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
    // A bulk seed's statements may run longer than the pool's per-statement limit for requests.
    await tx.execute(sql`set local statement_timeout = 0`);
    if (options.reset) {
      await tx.delete(claims);
      await tx.delete(providerLocations);
    }
    let locations = 0;
    let claimCount = 0;
    for (const batch of generateDemoData({
      seed: options.seed,
      locations: Math.min(options.locations, DETAILED_LOCATIONS),
      today,
      batchSize: 2000,
    })) {
      await tx.insert(providerLocations).values(batch.locations);
      await tx.insert(claims).values(batch.claims);
      if (batch.ediEnrollments.length) await tx.insert(ediEnrollments).values(batch.ediEnrollments);
      locations += batch.locations.length;
      claimCount += batch.claims.length;
      options.onProgress?.(locations);
    }
    for (let from = locations; from < options.locations; from += BULK_CHUNK) {
      const to = Math.min(from + BULK_CHUNK, options.locations);
      await insertBulkLocations(tx, { from, to, seed: options.seed ?? DEMO_SEED, today });
      locations += to - from;
      claimCount += (to - from) * 3;
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
