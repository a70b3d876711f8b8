import type { apiRequest } from './api-client';

/**
 * A call to the portal's API whose path and answer schema come from a contracts module (with zod), loaded when the
 * call is made, with the HTTP client: a page builds no schema before its first call, and the server puts its first
 * reads in the page (docs/decisions/0034-server-rendered-portal-pages.md), so most pages make none while they load
 * (issue 39: the initial JS of a logged-in page stays ≤ 170 KB).
 */
export async function contractCall<M, T>(
  contracts: () => Promise<M>,
  call: (module: M, request: typeof apiRequest) => Promise<T>,
): Promise<T> {
  const [client, module] = await Promise.all([import('./api-client'), contracts()]);
  return call(module, client.apiRequest);
}
