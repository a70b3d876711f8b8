/** Route table (docs/requirements/public-site.md#routes): components build links from here, never by hand. */
export const paths = {
  home: { path: '/', href: () => '/' },
  topic: { path: '/topics/:id', href: (id: string) => `/topics/${encodeURIComponent(id)}` },
  /** `next`: a same-site path to return to after the login (docs/requirements/session.md#login). */
  login: { path: '/login', href: (next?: string) => (next ? `/login?next=${encodeURIComponent(next)}` : '/login') },
  /** The portal home (docs/requirements/portal.md#portal-home): where a login lands without a `next`; logged in only. */
  portalHome: { path: '/portal', href: () => '/portal' },
  /** After a chosen logout (docs/requirements/session.md#logout): "You have logged out". */
  loggedOut: { path: '/logged-out', href: () => '/logged-out' },
  /** My account (docs/requirements/session.md#my-account): logged-in users only. */
  account: { path: '/account', href: () => '/account' },
  register: { path: '/register', href: () => '/register' },
  /** The emailed verification link carries its token in the fragment (`#token=…`), never in the query. */
  verifyEmail: { path: '/verify-email', href: () => '/verify-email' },
  /** The link that confirms a new email address (`#token=…`); it works logged in or not. */
  confirmEmail: { path: '/confirm-email', href: () => '/confirm-email' },
  forgotUsername: { path: '/login-help/username', href: () => '/login-help/username' },
  forgotPassword: { path: '/login-help/password', href: () => '/login-help/password' },
  resetPassword: { path: '/reset-password', href: () => '/reset-password' },
  reactivate: { path: '/reactivate', href: () => '/reactivate' },
  findAdmin: { path: '/find-admin', href: () => '/find-admin' },
  ddeAccess: { path: '/dde-access', href: () => '/dde-access' },
} as const;
