import type { FeedKind, FeedRejectCode } from '@portal/contracts/data-feeds';
import type { QueryFn } from '../db/client';
import { rebuildable, rebuildTable } from './rebuild';

/**
 * How each feed kind is staged and merged (docs/requirements/data-feeds.md#how-a-file-lands). Rows already checked
 * by the contracts' column rules go to a temporary staging table with the target's types; the merge is a few
 * set-based statements in one transaction, each touching only rows whose values change, so a forced re-run of the
 * same file changes no row.
 */
export interface KindSpec {
  /** Staging columns after `line` (the row's line in the file), with their SQL types. */
  stage: readonly (readonly [name: string, type: string])[];
  /** The staged values of a checked row, in `stage` order; a string is the code of a row-level reject. */
  toStage(values: Record<string, string>): (string | null)[] | { column: string; code: FeedRejectCode };
  /** The columns that name one row (duplicates within a file refuse it). */
  key: readonly string[];
  /**
   * The rows name a provider location (npi, ptan, line_of_business): its id is staged as `location_id` as the rows
   * are read, and a row naming no location is rejected (Unknown_Location).
   */
  unknownLocation?: boolean;
  /** The row counts of an update, an insert and (snapshot) an end-dating, in one transaction. */
  update(q: QueryFn, run: number, today: string): Promise<number>;
  insert(q: QueryFn, run: number, today: string): Promise<number>;
  /**
   * A load at least as large as the table it goes to: the table rebuilt with the staged rows and swapped in
   * (rebuild.ts) instead of `update` and `insert`, with the same outcome and counts.
   */
  rebuild?: {
    applies(q: QueryFn, staged: number): Promise<boolean>;
    apply(q: QueryFn, run: number): Promise<{ updated: number; inserted: number }>;
  };
  /** Snapshot only: rows in force that the file no longer lists, and how many are in force now. */
  endDating?: {
    count(q: QueryFn, today: string): Promise<{ missing: number; inForce: number }>;
    apply(q: QueryFn, run: number, today: string): Promise<number>;
  };
}

const nullable = (value: string | undefined) => (value ? value : null);
const LOCATION_KEY = 'p.npi = s.npi and p.ptan = s.ptan and p.line_of_business = s.line_of_business';
const count = async (q: QueryFn, text: string, params: unknown[]) =>
  Number((await q<{ n: string | number }>(text, params)).rows[0]?.n ?? 0);

/** Active until its end date; ended from that day on (db/locations.ts reads the same rule). */
const LOCATION_STATUS = `case when s.end_date is not null and s.end_date <= $2::date then 'inactive' else 'active' end::location_status`;

const LOCATION_COLUMNS = [
  'tin',
  'legal_name',
  'jurisdiction',
  'state',
  'address_line1',
  'city',
  'zip',
  'pecos_asct_cntl_id',
  'enrollment_id',
  'provider_type_code',
  'effective_date',
  'end_date',
] as const;

const providerEnrollment: KindSpec = {
  stage: [
    ['npi', 'varchar(10)'],
    ['ptan', 'varchar(10)'],
    ['line_of_business', 'line_of_business'],
    ['tin', 'varchar(9)'],
    ['legal_name', 'text'],
    ['jurisdiction', 'jurisdiction'],
    ['state', 'varchar(2)'],
    ['address_line1', 'text'],
    ['city', 'text'],
    ['zip', 'varchar(10)'],
    ['pecos_asct_cntl_id', 'varchar(10)'],
    ['enrollment_id', 'varchar(15)'],
    ['provider_type_code', 'varchar(10)'],
    ['effective_date', 'date'],
    ['end_date', 'date'],
  ],
  toStage(v) {
    // A PECOS row names an organisation (ORG_NAME) or a person (FIRST_NAME, LAST_NAME).
    const legalName = v.ORG_NAME || [v.FIRST_NAME, v.LAST_NAME].filter(Boolean).join(' ');
    if (!legalName) return { column: 'ORG_NAME', code: 'Required' };
    if (v.END_DATE && v.EFFECTIVE_DATE && v.END_DATE < v.EFFECTIVE_DATE)
      return { column: 'END_DATE', code: 'Invalid_Date' };
    return [
      v.NPI!,
      v.PTAN!,
      v.LINE_OF_BUSINESS!,
      v.TIN!,
      legalName,
      v.JURISDICTION!,
      v.STATE_CD!,
      v.ADR_LINE_1!,
      v.CITY_NAME!,
      v.ZIP_CD!,
      nullable(v.PECOS_ASCT_CNTL_ID),
      nullable(v.ENRLMT_ID),
      nullable(v.PROVIDER_TYPE_CD),
      v.EFFECTIVE_DATE!,
      nullable(v.END_DATE),
    ];
  },
  key: ['npi', 'ptan', 'line_of_business'],
  async update(q, run, today) {
    const target = `(${LOCATION_COLUMNS.map((c) => `p.${c}`).join(', ')}, p.status)`;
    const source = `(${LOCATION_COLUMNS.map((c) => `s.${c}`).join(', ')}, ${LOCATION_STATUS})`;
    const { count: n } = await q(
      `update provider_locations p set ${LOCATION_COLUMNS.map((c) => `${c} = s.${c}`).join(', ')},
         status = ${LOCATION_STATUS}, import_run_id = $1
       from feed_stage s where ${LOCATION_KEY} and ${target} is distinct from ${source}`,
      [run, today],
    );
    return n;
  },
  async insert(q, run, today) {
    const { count: n } = await q(
      `insert into provider_locations (npi, ptan, line_of_business, ${LOCATION_COLUMNS.join(', ')}, status, import_run_id)
       select s.npi, s.ptan, s.line_of_business, ${LOCATION_COLUMNS.map((c) => `s.${c}`).join(', ')}, ${LOCATION_STATUS}, $1
       from feed_stage s
       where not exists (select 1 from provider_locations p where ${LOCATION_KEY})`,
      [run, today],
    );
    return n;
  },
  endDating: {
    async count(q, today) {
      const inForce = await count(
        q,
        `select count(*) as n from provider_locations p where p.end_date is null or p.end_date > $1::date`,
        [today],
      );
      const missing = await count(
        q,
        `select count(*) as n from provider_locations p where (p.end_date is null or p.end_date > $1::date)
           and not exists (select 1 from feed_stage s where ${LOCATION_KEY})`,
        [today],
      );
      return { missing, inForce };
    },
    async apply(q, run, today) {
      const { count: n } = await q(
        `update provider_locations p set end_date = $2::date, status = 'inactive', import_run_id = $1
         where (p.end_date is null or p.end_date > $2::date)
           and not exists (select 1 from feed_stage s where ${LOCATION_KEY})`,
        [run, today],
      );
      return n;
    },
  },
};

const CLAIM_COLUMNS = ['patient_mbi', 'date_of_service', 'paid_amount', 'paid_date', 'check_number'] as const;

const paidClaims: KindSpec = {
  stage: [
    ['claim_number', 'varchar(23)'],
    ['npi', 'varchar(10)'],
    ['ptan', 'varchar(10)'],
    ['line_of_business', 'line_of_business'],
    ['patient_mbi', 'varchar(11)'],
    ['date_of_service', 'date'],
    ['paid_amount', 'numeric(12, 2)'],
    ['paid_date', 'date'],
    ['check_number', 'varchar(20)'],
  ],
  toStage(v) {
    if (v.DATE_OF_SERVICE! > v.PAID_DATE!) return { column: 'DATE_OF_SERVICE', code: 'Invalid_Date' };
    return [
      v.CLAIM_NUMBER!,
      v.NPI!,
      v.PTAN!,
      v.LINE_OF_BUSINESS!,
      v.PATIENT_MBI!,
      v.DATE_OF_SERVICE!,
      v.PAID_AMOUNT!,
      v.PAID_DATE!,
      v.CHECK_EFT_NUMBER!,
    ];
  },
  key: ['claim_number'],
  unknownLocation: true,
  update: (q, run) => updateClaims(q, 'claims', run),
  // Claims already on file (updated above when they changed) are skipped by the unique index as each row goes in,
  // not by an anti-join: a plan for one (statistics left by a large delete or a TRUNCATE describe rows that are gone)
  // was a nested loop scanning `claims` once per staged row, which the insert grows (docs/decisions/0087).
  async insert(q, run) {
    const { count: n } = await q(
      `insert into claims (location_id, claim_number, ${CLAIM_COLUMNS.join(', ')}, import_run_id)
       select s.location_id, s.claim_number, ${CLAIM_COLUMNS.map((col) => `s.${col}`).join(', ')}, $1
       from feed_stage s
       on conflict (claim_number) do nothing`,
      [run],
    );
    return n;
  },
  rebuild: {
    // Bounded: counts at most one row more than the stage holds, whatever the table's size.
    applies: async (q, staged) =>
      staged > 0 &&
      (await count(q, `select count(*) as n from (select 1 from claims limit $1) c`, [staged + 1])) <= staged &&
      (await rebuildable(q, 'claims')),
    async apply(q, run) {
      let updated = 0;
      let inserted = 0;
      await rebuildTable(q, 'claims', async (next) => {
        // Hash joins whatever the statistics of `claims` say (a TRUNCATE's leave it "empty": docs/decisions/0087).
        await q('set local enable_nestloop = off');
        await q(`insert into ${next} select * from claims`);
        updated = await updateClaims(q, next, run);
        ({ count: inserted } = await q(
          `insert into ${next} (location_id, claim_number, ${CLAIM_COLUMNS.join(', ')}, import_run_id)
           select s.location_id, s.claim_number, ${CLAIM_COLUMNS.map((col) => `s.${col}`).join(', ')}, $1
           from feed_stage s where not exists (select 1 from claims c where c.claim_number = s.claim_number)`,
          [run],
        ));
      });
      return { updated, inserted };
    },
  },
};

/** Claims on file whose staged row differs take the staged values (a forced re-run of a file changes no row). */
async function updateClaims(q: QueryFn, table: string, run: number): Promise<number> {
  const { count: n } = await q(
    `update ${table} c set location_id = s.location_id, ${CLAIM_COLUMNS.map((col) => `${col} = s.${col}`).join(', ')}, import_run_id = $1
       from feed_stage s
       where c.claim_number = s.claim_number
         and (c.location_id, ${CLAIM_COLUMNS.map((col) => `c.${col}`).join(', ')})
           is distinct from (s.location_id, ${CLAIM_COLUMNS.map((col) => `s.${col}`).join(', ')})`,
    [run],
  );
  return n;
}

const EDI_COLUMNS = ['submitter_id', 'network_service_vendor', 'dde_access_type', 'status'] as const;

const ediEnrollments: KindSpec = {
  stage: [
    ['npi', 'varchar(10)'],
    ['ptan', 'varchar(10)'],
    ['line_of_business', 'line_of_business'],
    ['submitter_id', 'varchar(15)'],
    ['network_service_vendor', 'text'],
    ['dde_access_type', 'dde_access_type'],
    ['status', 'edi_enrollment_status'],
  ],
  toStage: (v) => [
    v.NPI!,
    v.PTAN!,
    v.LINE_OF_BUSINESS!,
    v.SUBMITTER_ID!,
    v.NETWORK_SERVICE_VENDOR!,
    v.DDE_ACCESS_TYPE!,
    v.STATUS!,
  ],
  key: ['npi', 'ptan', 'line_of_business'],
  unknownLocation: true,
  async update(q, run) {
    const { count: n } = await q(
      `update edi_enrollments e set ${EDI_COLUMNS.map((c) => `${c} = s.${c}`).join(', ')}, end_date = null,
         import_run_id = $1, updated_at = now()
       from feed_stage s
       where e.location_id = s.location_id
         and (${EDI_COLUMNS.map((c) => `e.${c}`).join(', ')}, e.end_date)
           is distinct from (${EDI_COLUMNS.map((c) => `s.${c}`).join(', ')}, null::date)`,
      [run],
    );
    return n;
  },
  async insert(q, run) {
    const { count: n } = await q(
      `insert into edi_enrollments (location_id, ${EDI_COLUMNS.join(', ')}, import_run_id)
       select s.location_id, ${EDI_COLUMNS.map((c) => `s.${c}`).join(', ')}, $1
       from feed_stage s
       where not exists (select 1 from edi_enrollments e where e.location_id = s.location_id)`,
      [run],
    );
    return n;
  },
  endDating: {
    async count(q, today) {
      const inForce = await count(
        q,
        `select count(*) as n from edi_enrollments e where e.end_date is null or e.end_date > $1::date`,
        [today],
      );
      const missing = await count(
        q,
        `select count(*) as n from edi_enrollments e where (e.end_date is null or e.end_date > $1::date)
           and not exists (select 1 from feed_stage s where s.location_id = e.location_id)`,
        [today],
      );
      return { missing, inForce };
    },
    async apply(q, run, today) {
      const { count: n } = await q(
        `update edi_enrollments e set end_date = $2::date, import_run_id = $1, updated_at = now()
         where (e.end_date is null or e.end_date > $2::date)
           and not exists (select 1 from feed_stage s where s.location_id = e.location_id)`,
        [run, today],
      );
      return n;
    },
  },
};

export const kindSpecs: Record<FeedKind, KindSpec> = {
  'provider-enrollment': providerEnrollment,
  'paid-claims': paidClaims,
  'edi-enrollments': ediEnrollments,
};
