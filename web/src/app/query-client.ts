import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-error';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again; network and 5xx failures get three more tries.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 3,
      },
    },
  });
}
