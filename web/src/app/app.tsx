import { hydrate } from '@tanstack/react-query';
import { useState } from 'react';
import { receivedMarkdownTrees } from '../components/content-markdown/markdown-trees';
import { RouterProvider, type DataRouter } from 'react-router';
import { AppProviders } from './app-providers';
import { createQueryClient } from './query-client';
import { freshQueries, type ServerState } from './server-state';

/**
 * The browser app; `serverState` is the query cache of a server-rendered page, hydrated so nothing is fetched twice,
 * and its parsed markdown, so nothing is parsed twice. The router is made by the caller (main.tsx), before
 * rendering: creating it writes the history entry's state (`history.replaceState`, 10–20 ms in Chromium), work
 * that would otherwise lengthen hydration's first task.
 */
export function App({ router, serverState }: { router: DataRouter; serverState?: ServerState }) {
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
      <RouterProvider router={router} />
    </AppProviders>
  );
}
