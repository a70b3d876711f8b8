import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RegionProvider } from '../lib/region/region-context';
import { SessionProvider } from '../lib/session/session-context';
import { printStyles } from './print-styles';
import { theme } from './theme';

/** Theme, query client, session and region state around the router: the app and the unit-test harness share it. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <GlobalStyles styles={printStyles} />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RegionProvider>{children}</RegionProvider>
        </SessionProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
