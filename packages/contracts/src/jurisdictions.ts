import { z } from 'zod/mini';

/** The jurisdiction options, in the order of docs/requirements/jurisdictions.md#options. The first (empty) entry is the "Choose Jurisdiction" placeholder. */
export const jurisdictionOptions = [
  { value: '', title: 'Choose Jurisdiction', color: undefined, svg: undefined, providers: [] },
  { value: 'J5A', title: 'J5 MAC Part A', color: '#FBBC1C', svg: 'jurisdiction_J5_A.svg', providers: ['IA', 'KS', 'MO', 'NE'] },
  { value: 'J5B', title: 'J5 MAC Part B', color: '#25D0B1', svg: 'jurisdiction_J5_B.svg', providers: ['IA', 'KS', 'MO', 'NE'] },
  { value: 'J8A', title: 'J8 MAC Part A', color: '#8B61BA', svg: 'jurisdiction_J8_A.svg', providers: ['IN', 'MI'] },
  { value: 'J8B', title: 'J8 MAC Part B', color: '#FC8631', svg: 'jurisdiction_J8_B.svg', providers: ['IN', 'MI'] },
] as const satisfies readonly JurisdictionOption[];

export interface JurisdictionOption {
  title: string;
  value: string;
  color?: string | undefined;
  svg?: string | undefined;
  providers: readonly string[];
}

export const jurisdictionValues = ['J5A', 'J5B', 'J8A', 'J8B'] as const;
export const JurisdictionSchema = z.enum(jurisdictionValues);
export type Jurisdiction = z.infer<typeof JurisdictionSchema>;

/** The selectable options: every entry but the empty placeholder (docs/requirements/public-site.md#jurisdiction-picker: the placeholder is skipped). */
export const selectableJurisdictions = jurisdictionOptions.slice(1) as unknown as readonly (JurisdictionOption & { value: Jurisdiction })[];

/** Default map shown when an option has no image of its own (docs/requirements/jurisdictions.md#map-images). */
export const defaultJurisdictionImage = 'jurisdiction_default.svg';

export function isJurisdiction(value: unknown): value is Jurisdiction {
  return JurisdictionSchema.safeParse(value).success;
}

/** Text under a tile's map: "IA, KS, MO, NE Providers". */
export function providersLabel(option: Pick<JurisdictionOption, 'providers'>): string {
  return `${option.providers.join(', ')} Providers`;
}
