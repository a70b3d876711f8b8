import { z } from 'zod/mini';
import jurisdictionData from './jurisdictions.json';

/**
 * The portal's jurisdictions are defined once, in `jurisdictions.json` (the CMS's CommonJS reads the same file).
 * Each entry is one tile of the chooser (value, title, color, map image, provider states) and names the two parts
 * the database stores separately: the MAC jurisdiction (`J5`) and the line of business (`A` = Part A).
 * The browser, cookies and the CMS use the combined value (`J5A`). See docs/requirements/jurisdictions.md.
 */
export const MacJurisdictionSchema = z.enum(['J5', 'J8']);
export type MacJurisdiction = z.infer<typeof MacJurisdictionSchema>;
export const LineOfBusinessSchema = z.enum(['A', 'B']);

const JurisdictionEntrySchema = z
  .object({
    value: z.templateLiteral([MacJurisdictionSchema, LineOfBusinessSchema]),
    title: z.string(),
    color: z.string(),
    svg: z.string(),
    providers: z.array(z.string()),
    jurisdiction: MacJurisdictionSchema,
    lineOfBusiness: LineOfBusinessSchema,
  })
  .check(
    z.refine(
      (e) => e.value === `${e.jurisdiction}${e.lineOfBusiness}`,
      'value must be jurisdiction followed by lineOfBusiness',
    ),
  );
export type JurisdictionEntry = z.infer<typeof JurisdictionEntrySchema>;
/** The combined value, e.g. `J5A`. */
export type Jurisdiction = JurisdictionEntry['value'];

export const JurisdictionListSchema = z.array(JurisdictionEntrySchema);
/** The file is checked when loaded, so a typo in it fails every test and every start instead of showing later. */
export const selectableJurisdictions: readonly JurisdictionEntry[] = JurisdictionListSchema.parse(jurisdictionData);

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
export const JurisdictionSchema = z.enum(jurisdictionValues);

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
  return JurisdictionSchema.safeParse(value).success;
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
