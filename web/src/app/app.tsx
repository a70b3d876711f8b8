import { hydrate } from '@tanstack/react-query';
import { useState } from 'react';
import { receivedMarkdownTrees } from '../components/content-markdown/markdown-trees';
import { BrowserRouter, type RouteObject } from 'react-router';
import { AppProviders } from './app-providers';
import { PageRoutes } from './page-routes';
import { createQueryClient } from './query-client';
import { freshQueries, type ServerState } from './server-state';

/**
 * The browser app; `serverState` is the query cache of a server-rendered page, hydrated so nothing is fetched twice,
 * and its parsed markdown, so nothing is parsed twice. `routes` (router.tsx) render in React Router's declarative
 * mode (`PageRoutes`).
 */
export function App({ routes, serverState }: { routes: RouteObject[]; serverState?: ServerState }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    if (serverState) hydrate(client, freshQueries(serverState.queries, Date.now()));
    return client;
  });
  const [markdownTrees] = useState(() => receivedMarkdownTrees(serverState?.markdown));
  return (
    <AppProviders
      queryClient={queryClient}
      mayHaveSession={serverState?.mayHaveSession}
      session={serverState?.session}
      markdownTrees={markdownTrees}
    >
      <BrowserRouter>
        <PageRoutes routes={routes} />
      </BrowserRouter>
    </AppProviders>
  );
}
