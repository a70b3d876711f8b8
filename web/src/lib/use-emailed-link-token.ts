import { useEffect, useRef, useState } from 'react';
import { useHydrated } from './use-hydrated';

/** The token of an emailed link (`/page#token=…`; docs/requirements/portal.md#portal-routes). */
function tokenFromFragment(): string {
  if (typeof window === 'undefined') return '';
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

/**
 * The token of the emailed link that opened this page, handed to `post` once (it is single use; development's
 * StrictMode runs effects twice). The fragment then leaves the address bar, so the token stays out of the history
 * and of a copied address. Answers the token ('' when the page was opened without one), or undefined while it is not
 * known yet: on the server and while a server-rendered page hydrates (the fragment never reaches the server).
 */
export function useEmailedLinkToken(post: (token: string) => void): string | undefined {
  const [fragmentToken] = useState(tokenFromFragment);
  const hydrated = useHydrated();
  const token = hydrated ? fragmentToken : undefined;
  const posted = useRef(false);
  useEffect(() => {
    if (window.location.hash)
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    if (!token || posted.current) return;
    posted.current = true;
    post(token);
  }, [token, post]);
  return token;
}
