import { z } from 'zod/mini';
import { ddeAccessTypes, ediEnrollmentStatuses } from './dde-access';
import { ClaimNumberSchema, MbiSchema, NpiSchema, PtanSchema, TinSchema } from './identifiers';
import { linesOfBusiness, macJurisdictions } from './jurisdictions';

/**
 * Data feeds (docs/requirements/data-feeds.md): the files the contractor's systems export, one layout per kind. The
 * row rules are the portal's own field rules (identifiers.ts), so a row the import takes is one the forms accept.
 */
export const feedKinds = ['provider-enrollment', 'paid-claims', 'edi-enrollments'] as const;
export type FeedKind = (typeof feedKinds)[number];
export const feedModes = ['snapshot', 'delta'] as const;
export type FeedMode = (typeof feedModes)[number];

/** Why a row went to the reject report; one code per column rule. */
export const feedRejectCodes = [
  'Required',
  'Invalid_NPI',
  'Invalid_PTAN',
  'Invalid_TIN',
  'Invalid_MBI',
  'Invalid_Claim_Number',
  'Invalid_Date',
  'Invalid_Amount',
  'Invalid_Value',
  'Too_Long',
  'Unknown_Location',
  'Wrong_Column_Count',
] as const;
export type FeedRejectCode = (typeof feedRejectCodes)[number];

/** One column's rule: normalises the text or answers the reject code. */
export interface FeedColumn {
  name: string;
  required: boolean;
  /** Personal data masked in the reject report (MBI, TIN): only the last four characters are shown. */
  masked?: boolean;
  check(value: string): { ok: true; value: string } | { ok: false; code: FeedRejectCode };
}

type Check = FeedColumn['check'];

function fromSchema(
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown } },
  code: FeedRejectCode,
): Check {
  return (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? { ok: true, value: parsed.data as string } : { ok: false, code };
  };
}

/** ISO calendar dates the portal's date pickers accept (1900-01-01..2099-12-31). */
const isoDate: Check = (value) => {
  if (!/^(19|20)\d\d-\d\d-\d\d$/.test(value)) return { ok: false, code: 'Invalid_Date' };
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
    ? { ok: true, value }
    : { ok: false, code: 'Invalid_Date' };
};

const text =
  (max: number): Check =>
  (value) =>
    value.length <= max ? { ok: true, value } : { ok: false, code: 'Too_Long' };

const pattern =
  (re: RegExp, transform: (v: string) => string = (v) => v): Check =>
  (value) => {
    const normalised = transform(value);
    return re.test(normalised) ? { ok: true, value: normalised } : { ok: false, code: 'Invalid_Value' };
  };

const oneOf = (values: readonly string[], transform: (v: string) => string = (v) => v): Check =>
  pattern(new RegExp(`^(${values.join('|')})$`), transform);

const amount: Check = (value) =>
  /^\d{1,10}(\.\d{1,2})?$/.test(value) ? { ok: true, value } : { ok: false, code: 'Invalid_Amount' };

const col = (name: string, required: boolean, check: Check, masked = false): FeedColumn => ({
  name,
  required,
  check,
  masked,
});

const npi = fromSchema(NpiSchema, 'Invalid_NPI');
const ptan = fromSchema(PtanSchema, 'Invalid_PTAN');
const upper = (v: string) => v.toUpperCase();

/**
 * Provider enrollment: one row per practice location. The PECOS public provider-enrollment file's column names where
 * they overlap (NPI, PECOS_ASCT_CNTL_ID, ENRLMT_ID, PROVIDER_TYPE_CD, STATE_CD, ORG_NAME, FIRST_NAME, LAST_NAME) and
 * its practice-location file's (ADR_LINE_1, CITY_NAME, ZIP_CD), plus the contractor's PTAN, TIN, jurisdiction, line
 * of business and dates.
 */
export const providerEnrollmentColumns: readonly FeedColumn[] = [
  col('NPI', true, npi),
  col('PECOS_ASCT_CNTL_ID', false, pattern(/^\d{10}$/)),
  col('ENRLMT_ID', false, pattern(/^[IO]\d{14}$/, upper)),
  col('PROVIDER_TYPE_CD', false, pattern(/^[0-9A-Z-]{1,10}$/, upper)),
  col('STATE_CD', true, pattern(/^[A-Z]{2}$/, upper)),
  col('ORG_NAME', false, text(200)),
  col('FIRST_NAME', false, text(100)),
  col('LAST_NAME', false, text(100)),
  col('PTAN', true, ptan),
  col('TIN', true, fromSchema(TinSchema, 'Invalid_TIN'), true),
  col('JURISDICTION', true, oneOf(macJurisdictions, upper)),
  col('LINE_OF_BUSINESS', true, oneOf(linesOfBusiness, upper)),
  col('ADR_LINE_1', true, text(200)),
  col('CITY_NAME', true, text(100)),
  col(
    'ZIP_CD',
    true,
    pattern(/^\d{5}(\d{4})?$/, (v) => v.replace('-', '')),
  ),
  col('EFFECTIVE_DATE', true, isoDate),
  col('END_DATE', false, isoDate),
];

/** Paid claims: the facts that prove authority (the 835's CLP07, NM1*QC, DTM*232, CLP04, BPR16, TRN02). */
export const paidClaimsColumns: readonly FeedColumn[] = [
  col('CLAIM_NUMBER', true, fromSchema(ClaimNumberSchema, 'Invalid_Claim_Number')),
  col('NPI', true, npi),
  col('PTAN', true, ptan),
  col('LINE_OF_BUSINESS', true, oneOf(linesOfBusiness, upper)),
  col('PATIENT_MBI', true, fromSchema(MbiSchema, 'Invalid_MBI'), true),
  col('DATE_OF_SERVICE', true, isoDate),
  col('PAID_AMOUNT', true, amount),
  col('PAID_DATE', true, isoDate),
  col('CHECK_EFT_NUMBER', true, pattern(/^[A-Z0-9]{1,20}$/, upper)),
];

/** EDI enrollments: a location's submitter id, network service vendor and DDE access (one per location). */
export const ediEnrollmentColumns: readonly FeedColumn[] = [
  col('NPI', true, npi),
  col('PTAN', true, ptan),
  col('LINE_OF_BUSINESS', true, oneOf(linesOfBusiness, upper)),
  col('SUBMITTER_ID', true, pattern(/^[A-Z0-9]{1,15}$/, upper)),
  col('NETWORK_SERVICE_VENDOR', true, text(200)),
  col(
    'DDE_ACCESS_TYPE',
    true,
    oneOf(ddeAccessTypes, (v) => v.toLowerCase()),
  ),
  col(
    'STATUS',
    true,
    oneOf(ediEnrollmentStatuses, (v) => v.toLowerCase()),
  ),
];

export const feedColumns: Record<FeedKind, readonly FeedColumn[]> = {
  'provider-enrollment': providerEnrollmentColumns,
  'paid-claims': paidClaimsColumns,
  'edi-enrollments': ediEnrollmentColumns,
};

/** The kinds whose snapshot end-dates what a file no longer lists (paid claims only ever add: delta). */
export const snapshotKinds: readonly FeedKind[] = ['provider-enrollment', 'edi-enrollments'];

/** The command's arguments, checked once for the command and the drop-folder job alike. */
export const FeedKindSchema = z.enum(feedKinds);
export const FeedModeSchema = z.enum(feedModes);

/** `123456789` → `*****6789`, `1EG4TE5MK73` → `*******MK73`: what a reject report shows of a masked column. */
export function maskFeedValue(value: string): string {
  return value.length <= 4 ? '*'.repeat(value.length) : `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;
}
