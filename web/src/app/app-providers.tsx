import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MarkdownTreesProvider, type MarkdownTrees } from '../components/content-markdown/markdown-trees';
import { RegionProvider, type RegionCookies } from '../lib/region/region-context';
import { RenderEnvironmentProvider, type RenderEnvironment } from '../lib/render-environment';
import { SessionProvider, type KnownSession } from '../lib/session/session-context';
import { printStyles } from './print-styles';
import { portalTheme } from './theme';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Server rendering only: the request's region cookies and environment (the browser reads its own). */
  server?: { cookies: RegionCookies; environment: RenderEnvironment };
  /** Whether the request for a server-rendered page carried a session cookie (the same on the server and while hydrating). */
  mayHaveSession?: boolean;
  /** A page for logged-in users: the session the server checked before rendering it (the same while hydrating). */
  session?: KnownSession;
  /** Parsed markdown: recorded by a server render, received by the browser with a server-rendered page. */
  markdownTrees?: MarkdownTrees;
}

/** Theme, query client, session and region state around the router: the app, the server render and the unit-test harness share it. */
export function AppProviders({
  queryClient,
  children,
  server,
  mayHaveSession,
  session,
  markdownTrees,
}: AppProvidersProps) {
  return (
    <ThemeProvider theme={portalTheme()}>
      <CssBaseline />
      <GlobalStyles styles={printStyles} />
      <RenderEnvironmentProvider value={server?.environment}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider mayHaveSession={mayHaveSession} session={session}>
            <RegionProvider cookies={server?.cookies}>
              <MarkdownTreesProvider value={markdownTrees}>{children}</MarkdownTreesProvider>
            </RegionProvider>
          </SessionProvider>
        </QueryClientProvider>
      </RenderEnvironmentProvider>
    </ThemeProvider>
  );
}
