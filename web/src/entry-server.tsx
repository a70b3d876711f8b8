import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { renderToReadableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/app-providers';
import { dialogsAllowedFor } from './app/dialogs/global-dialogs';
import { createQueryClient } from './app/query-client';
import { routes } from './app/router';
import { SERVER_STATE_ELEMENT_ID, serializeServerState } from './app/server-state';
import { recordMarkdownTrees } from './components/content-markdown/markdown-trees';
import { paths } from './config/paths';
import { getHomePageQueryOptions } from './features/content/api/get-home-page';
import { getTopicQueryOptions } from './features/content/api/get-topic';
import { getTopicsQueryOptions } from './features/content/api/get-topics';
import { setServerContentTransport, type ContentTransport } from './lib/content-request';
import { jurisdictionFrom } from './lib/region/region-context';
import { PageHeadRecorder, PageHeadRecorderContext, type PageHead } from './lib/use-document-title';

/**
 * The portal server's entry (docs/decisions/0018-server-rendering.md): built with `vite build --ssr`, it renders the
 * public pages with the same components as the browser, after reading their content in-process.
 */

export interface PageRequest {
  /** The URL path, without the query string. */
  path: string;
  /** The region and amaApproved cookies as sent (docs/requirements/public-site.md#cookies). */
  cookies: { region: string | undefined; license: string | undefined };
  userAgent: string;
  /**
   * Whether the request carried a session cookie (its value is never needed). A page rendered for it shows a
   * placeholder for the header's Log in until the browser knows the session: the page stays shareable between
   * visitors, logged in or not.
   */
  sessionCookie: boolean;
}

export interface RenderedPage {
  /** 200, or 404 for a not-found state (an unknown path, an unknown or unpublished topic). */
  status: number;
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

// The public pages; anything else (portal pages that need a session) is left to the browser.
const SERVER_RENDERED_ROUTES = new Set<string>([paths.home.path, paths.topic.path, '*']);

// matchRoutes flattens and ranks the route table on every call: a cached page must cost no more than a lookup, so
// each path's match is remembered (bounded; the table never changes while the server runs).
const MATCH_MEMO_ENTRIES = 1000;
const matchMemo = new Map<string, ReturnType<typeof matchLeaf>>();

function matchLeaf(path: string) {
  const matches = matchRoutes(routes, path);
  const leaf = matches?.[matches.length - 1];
  return leaf && SERVER_RENDERED_ROUTES.has(leaf.route.path ?? '') ? leaf : undefined;
}

function leafMatch(path: string) {
  if (matchMemo.has(path)) return matchMemo.get(path);
  const leaf = matchLeaf(path);
  if (matchMemo.size >= MATCH_MEMO_ENTRIES) matchMemo.clear();
  matchMemo.set(path, leaf);
  return leaf;
}

/**
 * Everything a rendered page depends on besides content: the page (every unknown path renders the same not-found
 * page), the jurisdiction, the license state and whether dialogs may show at all. Undefined: not server-rendered.
 */
export function pageVariant(request: PageRequest): string | undefined {
  const leaf = leafMatch(request.path);
  if (!leaf) return undefined;
  const page = leaf.route.path === '*' ? '*' : request.path;
  const license = request.cookies.license === 'true' ? 'license' : '';
  const dialogs = dialogsAllowedFor(request.userAgent) ? 'dialogs' : '';
  const session = request.sessionCookie ? 'session' : '';
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

/** Reads the route's content into the query cache: whether all of it was read. */
async function prefetch(queryClient: QueryClient, leaf: NonNullable<ReturnType<typeof leafMatch>>): Promise<boolean> {
  const succeeded = (queryKey: readonly unknown[]) => queryClient.getQueryState(queryKey)?.status === 'success';
  if (leaf.route.path === paths.home.path) {
    const home = getHomePageQueryOptions();
    const topics = getTopicsQueryOptions();
    await Promise.all([queryClient.prefetchQuery(home), queryClient.prefetchQuery(topics)]);
    return succeeded(home.queryKey) && succeeded(topics.queryKey);
  }
  if (leaf.route.path === paths.topic.path) {
    const topic = getTopicQueryOptions(leaf.params.id ?? '');
    await queryClient.prefetchQuery(topic);
    return succeeded(topic.queryKey);
  }
  return true;
}

/**
 * Renders a public page, or answers undefined when the browser should render it (not a public page, or its
 * content could not be read: the browser then shows its own loading and error states).
 */
export async function renderPage(request: PageRequest): Promise<RenderedPage | undefined> {
  const leaf = leafMatch(request.path);
  if (!leaf) return undefined;
  const queryClient = createQueryClient();
  // One attempt: a page that cannot get its content is left to the browser, which retries.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  if (!(await prefetch(queryClient, leaf))) return undefined;

  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(request.path, origin)));
  if (context instanceof Response) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);
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
          markdownTrees={markdownTrees}
        >
          {/* No inline hydration script (CSP, docs/decisions/0006-csp.md): the routes have no loaders to hand over. */}
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProviders>
      </PageHeadRecorderContext>
    </CacheProvider>,
    {
      onError() {
        failed = true;
      },
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
  const state = `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${serializeServerState({ queries: dehydrate(queryClient), mayHaveSession: request.sessionCookie, markdown: markdownTrees.serialize() })}</script>`;
  return { status: pageHead.head.notFound ? 404 : 200, head: headTags(pageHead.head) + styles, root, state };
}
