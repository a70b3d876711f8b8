import type { QueryClient } from '@tanstack/react-query';
import type { Params, RouteObject } from 'react-router';

/**
 * What the server needs to know of a route to render it (docs/decisions/0060),
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
  /**
   * A page for logged-in users (`requiresLogin`): the portal API reads its first screen shows, which the server makes
   * in-process with the request's own session into the page's query cache, so the browser asks for none of them while
   * the page loads. The page is never shared (`Cache-Control: private, no-store`, not in the page cache). A read that
   * fails is left to the browser.
   */
  sessionQueries?: () => Promise<SessionQuery[]>;
  /**
   * The help-desk console's pages (this route and those under it, docs/decisions/0088): drawn for the console session
   * the request's cookie opens, never cached (`Cache-Control: private, no-store`, not in the page cache). The function
   * reads what the page's first screen shows through the console's API in-process, with the request's cookies.
   */
  consoleReads?: () => Promise<ConsoleReads>;
}

/** Reads a console page's first screen into its query cache (`readApi`: the server's in-process API read). */
export type ConsoleReads = (
  queryClient: QueryClient,
  readApi: (path: string) => Promise<{ status: number; payload: unknown }>,
  page: { pathname: string; params: Params; search: URLSearchParams },
) => Promise<void>;

/** A `GET` of the portal's API read for the session (`path`), kept under the key of the query that reads it. */
interface SessionQuery extends ServerQuery {
  path: string;
  /** A read the API spells as a `POST` of `{}` (`/api/providers/get-easi`): sent so, with the CSRF header. */
  method?: 'POST';
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
