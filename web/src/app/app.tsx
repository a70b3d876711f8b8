import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { RegionProvider } from '../lib/region/region-context';
import { SessionProvider } from '../lib/session/session-context';
import { createQueryClient } from './query-client';
import { printStyles } from './print-styles';
import { router } from './router';
import { theme } from './theme';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <GlobalStyles styles={printStyles} />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RegionProvider>
            <RouterProvider router={router} />
          </RegionProvider>
        </SessionProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
