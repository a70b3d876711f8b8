import type { LocationIdentifiers } from '@portal/contracts/access-requests';
import { activeLocationByIdentifiers } from '../../db/locations';
import { PortalError } from '../../platform/portal-error';
import { clientKey, countAttempt, peekAttempts, retryAfterHeader } from '../../platform/rate-limit';
import type { ServiceContext } from '../service-context';

type Identifiers = Pick<LocationIdentifiers, 'npi' | 'ptan' | 'tin' | 'jurisdiction' | 'lineOfBusiness'>;
type Location = NonNullable<Awaited<ReturnType<typeof activeLocationByIdentifiers>>>;

const WINDOW_MS = 60_000;
const failuresKey = (client: ServiceContext['client']) => `location-lookup-failures|client:${clientKey(client)}`;

/**
 * The locations an end user names (registration, a further request), each by NPI + PTAN + TIN, under a per-client
 * limit on lookups that find nothing (`registration.attemptsPerMinute` a minute, the provider step's figure): a
 * request naming several locations cannot guess faster than the provider step. Answers the locations in order,
 * `undefined` where none matched; the caller answers one non-revealing code for those.
 */
export async function findLocationsLimited(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'client'>,
  list: readonly Identifiers[],
): Promise<(Location | undefined)[]> {
  const max = ctx.config.registration.attemptsPerMinute;
  const key = failuresKey(ctx.client);
  const found: (Location | undefined)[] = [];
  for (const ids of list) {
    const before = await peekAttempts(ctx.db, key);
    if (before.count >= max) throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(before.ttlMs));
    const location = await activeLocationByIdentifiers(ctx.db, ids);
    if (!location) await countAttempt(ctx.db, key, WINDOW_MS);
    found.push(location);
  }
  return found;
}
