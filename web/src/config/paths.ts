/** Route table (docs/requirements/public-site.md#routes): components build links from here, never by hand. */
export const paths = {
  home: { path: '/', href: () => '/' },
  topic: { path: '/topics/:id', href: (id: string) => `/topics/${encodeURIComponent(id)}` },
  /** `next`: a same-site path to return to after the login (docs/requirements/session.md#login). */
  login: { path: '/login', href: (next?: string) => (next ? `/login?next=${encodeURIComponent(next)}` : '/login') },
  /** My account (docs/requirements/session.md#my-account): logged-in users only. */
  account: { path: '/account', href: () => '/account' },
  register: { path: '/register', href: () => '/register' },
  /** The emailed verification link carries its token in the fragment (`#token=…`), never in the query. */
  verifyEmail: { path: '/verify-email', href: () => '/verify-email' },
  findAdmin: { path: '/find-admin', href: () => '/find-admin' },
} as const;
