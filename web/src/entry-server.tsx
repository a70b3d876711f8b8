import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { dehydrate, type FetchQueryOptions, type QueryClient } from '@tanstack/react-query';
import { renderToReadableStream } from 'react-dom/server';
import { matchRoutes, StaticRouter } from 'react-router';
import { AppProviders } from './app/app-providers';
import { dialogsAllowedFor } from './app/dialogs/global-dialogs';
import { pageHandleOf } from './app/page-handle';
import { createQueryClient } from './app/query-client';
import { PageRoutes } from './app/page-routes';
import { routes } from './app/router';
import { SERVER_STATE_ELEMENT_ID, serializeServerState } from './app/server-state';
import { recordMarkdownTrees } from './components/content-markdown/markdown-trees';
import { readApiAnswer } from './lib/api-client';
import { setServerContentTransport, type ContentTransport } from './lib/content-request';
import { jurisdictionFrom } from './lib/region/region-context';
import type { KnownSession } from './lib/session/session-context';
import { PageHeadRecorder, PageHeadRecorderContext, type PageHead } from './lib/use-document-title';

/**
 * The portal server's entry (docs/decisions/0018-server-rendering.md, docs/decisions/0060):
 * built with `vite build --ssr`, it renders every page with the same components as the browser, after reading the
 * content of its first screen in-process.
 */

export interface PageRequest {
  /** The URL path, without the query string. */
  path: string;
  /** The region and amaApproved cookies as sent (docs/requirements/public-site.md#cookies). */
  cookies: { region: string | undefined; license: string | undefined };
  userAgent: string;
  /**
   * Whether the request carried a session cookie (its value is never needed here). A page rendered for one the
   * server did not find active (no `session`) shows a placeholder for the header's Log in until the browser knows the
   * session: the page stays shareable between visitors, logged in or not.
   */
  sessionCookie: boolean;
  /**
   * The session the server checked before rendering: a page that requires a login is rendered logged in, for this
   * session alone (never cached); a shared page asked with an active session's cookie is rendered logged in too, and
   * shared by every session of its kind (administrator or not: the header's menu), so nothing in the header changes
   * once the browser checks the session.
   */
  session?: KnownSession;
  /**
   * With `session`, or on a console page: reads the portal's API in-process with this request's cookies (a `GET`, or a read the
   * API spells as a `POST` of `{}`), for the page's `sessionQueries` (the page is rendered for this session alone,
   * never cached).
   */
  readApi?: ApiTransport;
}

/** How the portal server answers one of its own API reads in-process: the status and parsed JSON body. */
type ApiTransport = (path: string, method?: 'POST') => Promise<{ status: number; payload: unknown }>;

export interface RenderedPage {
  /**
   * 200, 404 for a not-found state (an unknown path, an unknown or unpublished topic), or 301 for a page that moved
   * (a topic's former address), with `location`.
   */
  status: number;
  location?: string;
  /** The page's `<title>`, `<meta name="description">` (and `noindex` when not found), then its style tags. */
  head: string;
  /** The app's markup for `#root`. */
  root: string;
  /** The non-executable JSON script with the query cache, placed after `#root`. */
  state: string;
}

let origin = 'http://localhost';

/** Called once when the server starts: its public address and how it reads `/api/content/…` in-process. */
export function configureServerRendering(options: { publicUrl: string; content: ContentTransport }) {
  origin = new URL(options.publicUrl).origin;
  setServerContentTransport(options.content);
}

// matchRoutes flattens and ranks the route table on every call: a cached page must cost no more than a lookup, so
// each path's match is remembered (bounded; the table never changes while the server runs). Every path matches:
// the table ends with the catch-all not-found route.
const MATCH_MEMO_ENTRIES = 1000;
const matchMemo = new Map<string, ReturnType<typeof matchPath>>();

function matchPath(path: string) {
  return matchRoutes(routes, path) ?? undefined;
}

function routeMatches(path: string) {
  if (matchMemo.has(path)) return matchMemo.get(path);
  const matches = matchPath(path);
  if (matchMemo.size >= MATCH_MEMO_ENTRIES) matchMemo.clear();
  matchMemo.set(path, matches);
  return matches;
}

/**
 * Whether the page at `path` is for logged-in users only (its route's handle says `requiresLogin`): the server then
 * checks the session before rendering it, renders it for that session alone and never caches it.
 */
export function pageRequiresLogin(path: string): boolean {
  return (routeMatches(path) ?? []).some(({ route }) => pageHandleOf(route).requiresLogin);
}

/**
 * Whether the page at `path` is the help-desk console's (a route's handle declares `consoleReads`): the server draws
 * it for the console session the request's cookie opens, for that request alone, never cached (docs/decisions/0088).
 */
export function pageForConsole(path: string): boolean {
  return (routeMatches(path) ?? []).some(({ route }) => pageHandleOf(route).consoleReads);
}

/**
 * Everything a shared page depends on besides content: the page (every unknown path renders the same not-found
 * page), the jurisdiction, the license state, whether dialogs may show at all, and the session: none, an active one
 * (an administrator's or not) or a cookie the server does not know as active.
 * Undefined: not a shared page (a page for logged-in users, see `pageRequiresLogin`, or the console's).
 */
export function pageVariant(request: PageRequest): string | undefined {
  const matches = routeMatches(request.path);
  const leaf = matches?.[matches.length - 1];
  if (!leaf || pageRequiresLogin(request.path) || pageForConsole(request.path)) return undefined;
  const page = leaf.route.path === '*' ? '*' : request.path;
  const license = request.cookies.license === 'true' ? 'license' : '';
  const dialogs = dialogsAllowedFor(request.userAgent) ? 'dialogs' : '';
  const session = request.session
    ? request.session.administersLocation
      ? 'administrator'
      : 'logged-in'
    : request.sessionCookie
      ? 'session'
      : '';
  return [page, jurisdictionFrom(request.cookies.region), license, dialogs, session].join('|');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function headTags(head: PageHead): string {
  return (
    `<title>${escapeHtml(head.title)}</title>` +
    `<meta name="description" content="${escapeHtml(head.description)}">` +
    (head.notFound ? '<meta name="robots" content="noindex">' : '')
  );
}

/** Reads the content the matched routes' first screen shows into the query cache: whether all of it was read. */
async function prefetch(queryClient: QueryClient, matches: NonNullable<ReturnType<typeof routeMatches>>) {
  const queries = (
    await Promise.all(matches.map(({ route, params }) => pageHandleOf(route).serverQueries?.(params) ?? []))
  ).flat();
  // Each is a `queryOptions(…)` value; its data type is erased in the route table.
  await Promise.all(queries.map((query) => queryClient.prefetchQuery(query as FetchQueryOptions)));
  return queries.every((query) => queryClient.getQueryState(query.queryKey)?.status === 'success');
}

/**
 * Reads a personal page's `sessionQueries` into its query cache through the server's own API, with the request's
 * session: the page's first screens have their data in the first HTML, and the browser asks for none of it while the
 * page loads. A read that fails is left out (the browser then asks for it as before).
 */
async function prefetchForSession(
  queryClient: QueryClient,
  matches: NonNullable<ReturnType<typeof routeMatches>>,
  readApi: ApiTransport,
) {
  const queries = (await Promise.all(matches.map(({ route }) => pageHandleOf(route).sessionQueries?.() ?? []))).flat();
  await Promise.all(
    queries.map(({ queryKey, path, method }) =>
      queryClient.prefetchQuery({
        queryKey,
        queryFn: async () => {
          const { status, payload } = await readApi(path, method);
          return readApiAnswer(status, payload);
        },
      }),
    ),
  );
}

/**
 * Reads a console page's first screen (its route's `consoleReads`) through the server's own API with the request's
 * cookies: the console session, then what the page shows for it (docs/decisions/0088).
 */
async function prefetchForConsole(
  queryClient: QueryClient,
  matches: NonNullable<ReturnType<typeof routeMatches>>,
  url: URL,
  readApi: ApiTransport,
) {
  const leaf = matches[matches.length - 1]!;
  const reads = await Promise.all(matches.map(({ route }) => pageHandleOf(route).consoleReads?.()));
  await Promise.all(
    reads.map((read) =>
      read?.(queryClient, (path) => readApi(path), {
        pathname: url.pathname,
        params: leaf.params,
        search: url.searchParams,
      }),
    ),
  );
}

/**
 * Renders a page, or answers undefined when the browser should render it (its content could not be read: the
 * browser then shows its own loading and error states).
 */
export async function renderPage(request: PageRequest): Promise<RenderedPage | undefined> {
  // A personal or console page's path carries its query (it is rendered for one request, at its whole URL).
  const url = new URL(request.path, origin);
  const matches = routeMatches(url.pathname);
  if (!matches) return undefined;
  const queryClient = createQueryClient();
  // One attempt: a page that cannot get its content is left to the browser, which retries.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  if (!(await prefetch(queryClient, matches))) return undefined;
  if (request.session && request.readApi) await prefetchForSession(queryClient, matches, request.readApi);
  if (request.readApi && pageForConsole(url.pathname))
    await prefetchForConsole(queryClient, matches, url, request.readApi);

  // A cache per render, so the critical CSS of this page can be read back (MUI's server-rendering guide).
  const emotionCache = createCache({ key: 'css' });
  const emotionServer = createEmotionServer(emotionCache);
  const environment = { userAgent: request.userAgent, location: { hostname: new URL(origin).hostname, origin } };
  // The page names and describes itself while it renders (useDocumentTitle); effects do not run here.
  const pageHead = new PageHeadRecorder();
  const markdownTrees = recordMarkdownTrees();
  let failed = false;
  const stream = await renderToReadableStream(
    <CacheProvider value={emotionCache}>
      <PageHeadRecorderContext value={pageHead}>
        <AppProviders
          queryClient={queryClient}
          server={{ cookies: request.cookies, environment }}
          mayHaveSession={request.sessionCookie}
          session={request.session}
          markdownTrees={markdownTrees}
        >
          <StaticRouter location={request.path}>
            <PageRoutes routes={routes} />
          </StaticRouter>
        </AppProviders>
      </PageHeadRecorderContext>
    </CacheProvider>,
    {
      onError() {
        failed = true;
      },
      // Every Suspense boundary in place in the page: React would otherwise send a large one (over 12.8 KB of
      // markup, counting the boundaries before it) after the rest with an inline script to move it in, which the
      // CSP refuses, leaving a part that hydrates on its own (lib/lazy-part.tsx) without its server markup.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  await stream.allReady;
  const root = await new Response(stream).text();
  if (failed) return undefined;
  // Every rule the render inserted, not only those whose class is in the markup (`extractCriticalToChunks(root)`):
  // a styled component wrapping another (MUI's Link around Typography) inserts a rule of its own whose class is
  // merged into the inner one's, so it never shows in the markup. The browser inserts that rule again while
  // hydrating unless the page's style tags list it (61 rules on `/`, insertRule calls in hydration's long task).
  const inserted = Object.keys(emotionCache.inserted).map((id) => `${emotionCache.key}-${id}`);
  const styles = emotionServer.constructStyleTagsFromChunks(emotionServer.extractCriticalToChunks(inserted.join(' ')));
  const state = `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${serializeServerState({ queries: dehydrate(queryClient), mayHaveSession: request.sessionCookie, session: request.session, markdown: markdownTrees.serialize() })}</script>`;
  const { movedTo, notFound } = pageHead.head;
  const status = movedTo ? 301 : notFound ? 404 : 200;
  return { status, ...(movedTo ? { location: movedTo } : {}), head: headTags(pageHead.head) + styles, root, state };
}
