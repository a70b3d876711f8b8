import type { DehydratedState } from '@tanstack/react-query';
import { matchRoutes, type RouteObject } from 'react-router';
import type { SerializedMarkdownTrees } from '../components/content-markdown/markdown-trees';
import type { KnownSession } from '../lib/session/session-context';

/** Id of the non-executable JSON script that carries a server-rendered page's query cache to the browser. */
export const SERVER_STATE_ELEMENT_ID = 'portal-server-state';

export interface ServerState {
  queries: DehydratedState;
  /** Whether the request carried a session cookie: the header's account control waits for the session check if so. */
  mayHaveSession: boolean;
  /** A page for logged-in users: rendered for this checked session (never in the shared page cache). */
  session?: KnownSession;
  /** The markdown the page rendered, parsed, so hydration does not parse it again. */
  markdown: SerializedMarkdownTrees;
}

/** The JSON of the page's server state, safe inside `<script type="application/json">` (no `</script>`, no `<!--`). */
export function serializeServerState(state: ServerState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The server state of this page, or undefined when the page was not server-rendered. */
export function readServerState(doc: Document): ServerState | undefined {
  const text = doc.getElementById(SERVER_STATE_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as ServerState;
  } catch {
    return undefined;
  }
}

/**
 * The server's answers count as fetched now: the page was revalidated (ETag) on this load, so its content is as
 * current as the server's content cache, and the browser must not fetch the same content again at once.
 */
export function freshQueries(state: DehydratedState, now: number): DehydratedState {
  return { ...state, queries: state.queries.map((q) => ({ ...q, state: { ...q.state, dataUpdatedAt: now } })) };
}

/**
 * Loads the lazy route modules the URL matches before hydration, so the first client render is the same tree the
 * server rendered (React Router would otherwise render nothing while they load: a hydration mismatch).
 */
export async function loadMatchedRoutes(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  openingPage = true;
  const loading = matches.map(async ({ route }) => {
    if (typeof route.lazy !== 'function') return;
    const loaded = await route.lazy();
    Object.assign(route, { ...loaded, lazy: undefined });
  });
  openingPage = false;
  await Promise.all(loading);
}

let openingPage = false;
/**
 * True while a route's `lazy` is called for the page the browser opened (by `loadMatchedRoutes`, before the first
 * render), false when the router calls it for a link followed in the app. A route whose page hydrates a part of
 * itself later (the login form) waits for that part only in the second case, where there is no server markup to
 * keep meanwhile. Read it before the first `await`.
 */
export const openingThePage = () => openingPage;
