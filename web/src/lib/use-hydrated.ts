import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;
const clientSnapshot = () => 0;

/**
 * False on the server and while a server-rendered page hydrates, true from a render soon after (and at once in a
 * page the browser renders itself). What only the browser knows — a link's `#token=…` fragment — is shown once this
 * is true, so the first browser render is the server's and hydration has no mismatch.
 *
 * Whether this component is hydrating is what React tells `useSyncExternalStore` by calling its server snapshot;
 * both snapshots are the same value, so the store never asks for a render of its own. The switch to true is a
 * transition (docs/decisions/0060): a store whose snapshot changes after hydration
 * re-renders at once, in one task, every form field of the page (each field is read-only until then); as a
 * transition, that render yields to the browser every few milliseconds.
 */
/* eslint-disable react-hooks/immutability -- `hydrating` is set and read in the same render, never after it */
export function useHydrated(): boolean {
  let hydrating = false;
  useSyncExternalStore(subscribe, clientSnapshot, () => {
    // React calls this only while rendering this component on the server or hydrating it, in this very render.
    hydrating = true;
    return 0;
  });
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
/* eslint-enable react-hooks/immutability */
