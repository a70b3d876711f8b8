import type * as content from '@portal/contracts/content';
import type { z } from 'zod/mini';

/**
 * How long a content query's answer counts as current. An editor's publish reaches the server's content cache within
 * a second (the CMS webhook); a page the visitor opens in the app later than this asks again (a revalidation, 304
 * when nothing changed), so it shows the change within a few seconds instead of a minute. A server-rendered page's
 * answers count as fetched when it loads (app/server-state.ts), so loading a page never asks twice.
 */
export const CONTENT_STALE_MS = 5_000;

/**
 * `contentRequest` (content-request.ts) for a query's `queryFn`, with the HTTP client and the answer's schema loaded
 * by the call: a server-rendered page has its content in its dehydrated query cache, so its first download carries
 * the query's key and options but neither the client nor zod (docs/requirements/platform.md#web-budget).
 * `schemaOf` picks the answer's schema from the contracts' content module.
 */
export async function readContent<T extends z.ZodMiniType>(
  path: string,
  params: Record<string, string>,
  schemaOf: (schemas: typeof content) => T,
  signal?: AbortSignal,
): Promise<z.output<T>> {
  const [{ contentRequest }, schemas] = await Promise.all([
    import('./content-request'),
    import('@portal/contracts/content'),
  ]);
  return contentRequest(path, params, schemaOf(schemas), signal);
}
