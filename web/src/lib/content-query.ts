import type * as content from '@portal/contracts/content';
import type { z } from 'zod/mini';

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
