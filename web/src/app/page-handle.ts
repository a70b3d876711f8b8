import type { Params, RouteObject } from 'react-router';

/**
 * What the server needs to know of a route to render it (docs/decisions/0034-server-rendered-portal-pages.md),
 * declared as the route's `handle`. Every route is server-rendered; a route without a handle is a page for anyone
 * that reads no content before its first screen.
 */
export interface PageHandle {
  /**
   * Logged-in users only (wrapped in RequireLogin): the server checks the session cookie and answers a redirect to
   * `/login?next=…` without one, or renders the page for that session alone (`Cache-Control: private, no-store`,
   * never in the shared page cache).
   */
  requiresLogin?: boolean;
  /**
   * The content queries the page's first screen shows, read on the server into the page's query cache, so they are
   * in the first HTML (no layout shift when they arrive). A function that imports what it needs, so the route
   * table does not pull query code into the browser's first download.
   */
  serverQueries?: (params: Params) => Promise<ServerQuery[]>;
}

/** A query the server reads for a page: what `queryOptions(…)` makes (its data type does not matter here). */
export interface ServerQuery {
  queryKey: readonly unknown[];
}

export const pageHandle = (handle: PageHandle) => handle;

/** The page handle of a matched route, if it declared one. */
export function pageHandleOf(route: RouteObject): PageHandle {
  return (route.handle ?? {}) as PageHandle;
}
