import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False on the server and while a server-rendered page hydrates, true from the render after (and in a page the
 * browser renders itself). What only the browser knows — a link's `#token=…` fragment — is shown once this is
 * true, so the first browser render is the server's and hydration has no mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
