import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactElement, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/app-providers';
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

function renderRoutes(routeObjects: RouteObject[], { path = '/', cookies }: RenderOptions) {
  setCookies(cookies);
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, user, router, queryClient };
}

/** The whole app (layout, global dialogs, every route) at `path`, with the providers main.tsx mounts. */
export function renderApp(options: RenderOptions = {}) {
  return renderRoutes(routes, options);
}

/** One element inside the app's providers and a memory router at `path` (no layout, no global dialogs). */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  return renderRoutes([{ path: '*', element: ui }], options);
}
