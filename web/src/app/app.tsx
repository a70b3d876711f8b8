import { hydrate } from '@tanstack/react-query';
import { useState } from 'react';
import { receivedMarkdownTrees } from '../components/content-markdown/markdown-trees';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app-providers';
import { createQueryClient } from './query-client';
import { routes } from './router';
import { freshQueries, type ServerState } from './server-state';

/**
 * The browser app; `serverState` is the query cache of a server-rendered page, hydrated so nothing is fetched twice,
 * and its parsed markdown, so nothing is parsed twice.
 */
export function App({ serverState }: { serverState?: ServerState }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    if (serverState) hydrate(client, freshQueries(serverState.queries, Date.now()));
    return client;
  });
  const [router] = useState(() => createBrowserRouter(routes));
  const [markdownTrees] = useState(() => receivedMarkdownTrees(serverState?.markdown));
  return (
    <AppProviders queryClient={queryClient} mayHaveSession={serverState?.mayHaveSession} markdownTrees={markdownTrees}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
