import jurisdictionData from './jurisdictions.json';

// The jurisdictions' data and helpers, without their schemas (jurisdictions.ts, which re-exports all of this): the
// browser's first download uses them (the header, the region cookie) and stays without zod
// (docs/requirements/platform.md#web-budget).

/** A MAC jurisdiction, as the database stores it (`MacJurisdictionSchema` in jurisdictions.ts). */
export type MacJurisdiction = 'J5' | 'J8';
/** Part A or Part B. */
export type JurisdictionLineOfBusiness = 'A' | 'B';
/** One tile of the chooser; jurisdictions.ts checks that its schema's type is this one. */
export interface JurisdictionEntry {
  value: `${MacJurisdiction}${JurisdictionLineOfBusiness}`;
  title: string;
  color: string;
  svg: string;
  providers: string[];
  jurisdiction: MacJurisdiction;
  lineOfBusiness: JurisdictionLineOfBusiness;
}
/** The combined value, e.g. `J5A`. */
export type Jurisdiction = JurisdictionEntry['value'];

/**
 * The file's entries. A test checks them against JurisdictionListSchema (jurisdictions.test.ts), so a typo fails the
 * tests instead of showing later.
 */
export const selectableJurisdictions = jurisdictionData as unknown as readonly JurisdictionEntry[];

export interface JurisdictionOption {
  title: string;
  value: string;
  color?: string | undefined;
  svg?: string | undefined;
  providers: readonly string[];
}

/** The chooser's options in order. The first (empty) entry is the "Choose Jurisdiction" placeholder, never selectable. */
export const jurisdictionOptions: readonly JurisdictionOption[] = [
  { value: '', title: 'Choose Jurisdiction', color: undefined, svg: undefined, providers: [] },
  ...selectableJurisdictions,
];

export const jurisdictionValues = selectableJurisdictions.map((e) => e.value) as [Jurisdiction, ...Jurisdiction[]];

function unique<T>(values: T[]): [T, ...T[]] {
  return [...new Set(values)] as [T, ...T[]];
}
/** The MAC jurisdictions in file order (`['J5', 'J8']`): the database enum and demo data use them. */
export const macJurisdictions = unique(selectableJurisdictions.map((e) => e.jurisdiction));
/** The lines of business in file order (`['A', 'B']`). */
export const linesOfBusiness = unique(selectableJurisdictions.map((e) => e.lineOfBusiness));

/** Default map shown when an option has no image of its own. */
export const defaultJurisdictionImage = 'jurisdiction_default.svg';

export function isJurisdiction(value: unknown): value is Jurisdiction {
  return typeof value === 'string' && (jurisdictionValues as readonly string[]).includes(value);
}

/** `J5A` → `{ jurisdiction: 'J5', lineOfBusiness: 'A' }`, the way the database stores it. */
export function toJurisdictionParts(value: Jurisdiction): Pick<JurisdictionEntry, 'jurisdiction' | 'lineOfBusiness'> {
  const entry = selectableJurisdictions.find((e) => e.value === value);
  if (!entry) throw new RangeError(`Unknown jurisdiction ${String(value)}`);
  return { jurisdiction: entry.jurisdiction, lineOfBusiness: entry.lineOfBusiness };
}

/** `{ jurisdiction: 'J5', lineOfBusiness: 'A' }` → `J5A`; throws for a pair the portal does not serve. */
export function fromJurisdictionParts(parts: { jurisdiction: string; lineOfBusiness: string }): Jurisdiction {
  const entry = selectableJurisdictions.find(
    (e) => e.jurisdiction === parts.jurisdiction && e.lineOfBusiness === parts.lineOfBusiness,
  );
  if (!entry)
    throw new RangeError(`Unknown jurisdiction ${parts.jurisdiction} with line of business ${parts.lineOfBusiness}`);
  return entry.value;
}

/** The provider states of a MAC jurisdiction (`J5` → IA, KS, MO, NE), in file order. */
export function statesOf(jurisdiction: MacJurisdiction): string[] {
  return [
    ...new Set(selectableJurisdictions.filter((e) => e.jurisdiction === jurisdiction).flatMap((e) => e.providers)),
  ];
}

/** Text under a tile's map: "IA, KS, MO, NE Providers". */
export function providersLabel(option: Pick<JurisdictionOption, 'providers'>): string {
  return `${option.providers.join(', ')} Providers`;
}
