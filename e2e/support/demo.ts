import { generateDemoData } from '../../server/src/db/demo-data';

/**
 * The demo provider locations a portal seeds (README "Demo data"), computed the way the seed does, so a test knows
 * the NPI, PTAN and TIN of the location a demo account belongs to without reading the database.
 */

/**
 * The `index`th demo location of a jurisdiction by NPI, then PTAN, among the `seedLocations` a portal seeded
 * (`SEED_LOCATIONS`): index 0 is where `demo.admin.<jurisdiction>` is the administrator
 * (server/src/modules/auth/demo-accounts.ts picks it the same way).
 */
export function demoLocation(seedLocations: number, jurisdiction: 'J5' | 'J8' = 'J5', index = 0) {
  const locations = [...generateDemoData({ locations: seedLocations, today: '2026-01-01' })].flatMap(
    (batch) => batch.locations,
  );
  const location = locations
    .filter((l) => l.jurisdiction === jurisdiction)
    .sort((a, b) => (a.npi === b.npi ? (a.ptan < b.ptan ? -1 : 1) : a.npi < b.npi ? -1 : 1))[index];
  if (!location) throw new Error(`no demo location ${index} of ${jurisdiction} among ${seedLocations}`);
  return location;
}
