import { hydrate } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app-providers';
import { createQueryClient } from './query-client';
import { routes } from './router';
import { freshQueries, type ServerState } from './server-state';

/** The browser app; `serverState` is the query cache of a server-rendered page, hydrated so nothing is fetched twice. */
export function App({ serverState }: { serverState?: ServerState }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    if (serverState) hydrate(client, freshQueries(serverState.queries, Date.now()));
    return client;
  });
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders queryClient={queryClient} mayHaveSession={serverState?.mayHaveSession}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
