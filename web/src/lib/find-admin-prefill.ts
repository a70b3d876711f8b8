/**
 * The provider location a page hands to `/find-admin` when it sends someone there (registration's "this location
 * already has an administrator"): carried in the router's history state, never in the URL (a TIN stays out of
 * addresses and logs). Two features use it, hence here.
 */
export interface FindAdminPrefill {
  npi: string;
  ptan: string;
  tin: string;
}

const KEY = 'findAdminPrefill';

/** The history state for a link to `/find-admin` with these identifiers. */
export function findAdminPrefillState(identifiers: FindAdminPrefill): Record<string, FindAdminPrefill> {
  return { [KEY]: { npi: identifiers.npi, ptan: identifiers.ptan, tin: identifiers.tin } };
}

/** The identifiers a link handed over, if any (anything else in the state is ignored). */
export function findAdminPrefillOf(state: unknown): FindAdminPrefill | undefined {
  const value = (state as Record<string, unknown> | null | undefined)?.[KEY] as Record<string, unknown> | undefined;
  if (!value || typeof value !== 'object') return undefined;
  const { npi, ptan, tin } = value;
  return typeof npi === 'string' && typeof ptan === 'string' && typeof tin === 'string'
    ? { npi, ptan, tin }
    : undefined;
}
