import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactElement, type ReactNode } from 'react';
import {
  matchRoutes,
  UNSAFE_createMemoryHistory,
  unstable_HistoryRouter as HistoryRouter,
  type RouteObject,
  type To,
} from 'react-router';
import { AppProviders } from '../app/app-providers';
import { loadRoute, PageRoutes } from '../app/page-routes';
import { createQueryClient } from '../app/query-client';
import { routes } from '../app/router';

/** The app's query client with its real defaults (retry rule, no refetch on focus), without waiting between tries. */
export function createTestQueryClient() {
  const client = createQueryClient();
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retryDelay: 0 } });
  return client;
}

/** A fresh test query client around `children` (for a provider tested alone, e.g. the session's, which queries). */
export function WithQueryClient({ children }: { children: ReactNode }) {
  const [client] = useState(createTestQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

export interface RenderOptions {
  /** Where the memory router starts. */
  path?: string;
  /** Cookies present before the app starts (the region state reads them once, at start). */
  cookies?: Record<string, string>;
}

function setCookies(cookies: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(cookies)) document.cookie = `${name}=${value}; path=/`;
}

/** Loads the `lazy` modules of the routes `to` matches, as a navigation does (`loadRoute`: with their parts). */
function loadRoutesFor(routeObjects: RouteObject[], to: To): Promise<unknown> | undefined {
  const lazy = (matchRoutes(routeObjects, to) ?? []).filter(({ route }) => typeof route.lazy === 'function');
  return lazy.length ? Promise.all(lazy.map(({ route }) => loadRoute(route))) : undefined;
}

/**
 * A memory history whose `push` and `replace` first load the `lazy` modules of the routes the new address matches
 * (`loadRoute`, as `PageRoutes` does on a navigation), then move: in the browser a navigation is a transition and
 * React keeps the page shown until the module is here; in jsdom a render that suspends inside testing-library's `act`
 * is never tried again. Moves keep their order.
 */
function routeLoadingHistory(routeObjects: RouteObject[], path: string) {
  const memory = UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true });
  let queue: Promise<void> | undefined;
  /** Moves once the routes are loaded; the promise settles when the address has changed. */
  const move = async (kind: 'push' | 'replace', to: To, state?: unknown): Promise<void> => {
    const loading = loadRoutesFor(routeObjects, to);
    if (!loading && !queue) return memory[kind](to, state);
    const moved = (queue ?? Promise.resolve()).then(() => loading).then(() => memory[kind](to, state));
    queue = moved;
    void moved.finally(() => {
      if (queue === moved) queue = undefined;
    });
    return moved;
  };
  return Object.assign(Object.create(memory) as typeof memory, {
    push: (to: To, state?: unknown) => void move('push', to, state),
    replace: (to: To, state?: unknown) => void move('replace', to, state),
    move,
  });
}

/**
 * The route objects rendered as the browser renders them (main.tsx, app.tsx): `PageRoutes` in a router of React
 * Router's declarative mode, here over a memory history, after the matched routes' `lazy` modules (and their parts,
 * `loadRoute`) are loaded, so the first render has the page. Until they are, nothing is rendered: a test finds the page
 * with `findBy…` (a lazy page suspending in the first render, inside testing-library's `act`, would never show).
 * `router` is the history the test reads and moves (`router.state.location`, `router.navigate`).
 */
function renderRoutes(routeObjects: RouteObject[], { path = '/', cookies }: RenderOptions) {
  setCookies(cookies);
  const queryClient = createTestQueryClient();
  const history = routeLoadingHistory(routeObjects, path);
  const router = {
    state: {
      get location() {
        return history.location;
      },
      get historyAction() {
        return history.action;
      },
    },
    navigate: (to: string) => history.move('push', to),
  };
  const user = userEvent.setup();
  const start = () =>
    render(
      <AppProviders queryClient={queryClient}>
        <HistoryRouter history={history as never}>
          <PageRoutes routes={routeObjects} />
        </HistoryRouter>
      </AppProviders>,
    );
  const loading = loadRoutesFor(routeObjects, history.location);
  if (loading) void loading.then(start);
  else start();
  return { user, router, queryClient };
}

/** The whole app (layout, global dialogs, every route) at `path`, with the providers main.tsx mounts. */
export function renderApp(options: RenderOptions = {}) {
  return renderRoutes(routes, options);
}

/** One element inside the app's providers and a router at `path` (no layout, no global dialogs), rendered at once. */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  return renderRoutes([{ path: '*', element: ui }], options);
}
