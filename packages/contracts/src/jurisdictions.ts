import { z } from 'zod/mini';
import { jurisdictionValues, type JurisdictionEntry, type MacJurisdiction } from './jurisdiction-list';
import type { Assert, SameShape } from './type-checks';

export * from './jurisdiction-list';

/**
 * The portal's jurisdictions are defined once, in `jurisdictions.json` (the CMS's CommonJS reads the same file).
 * Each entry is one tile of the chooser (value, title, color, map image, provider states) and names the two parts
 * the database stores separately: the MAC jurisdiction (`J5`) and the line of business (`A` = Part A).
 * The browser, cookies and the CMS use the combined value (`J5A`). See docs/requirements/jurisdictions.md.
 */
export const MacJurisdictionSchema = z.enum(['J5', 'J8']);
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
/** The schemas' types are jurisdiction-list.ts's (zod-free) `MacJurisdiction` and `JurisdictionEntry`. */
type _MacJurisdictionMatches = Assert<SameShape<z.infer<typeof MacJurisdictionSchema>, MacJurisdiction>>;
type _EntryMatches = Assert<SameShape<z.infer<typeof JurisdictionEntrySchema>, JurisdictionEntry>>;

export const JurisdictionListSchema = z.array(JurisdictionEntrySchema);
export const JurisdictionSchema = z.enum(jurisdictionValues);
