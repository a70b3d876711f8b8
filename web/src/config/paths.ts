import { OPS_PAGE_PATHS, PAGE_PATHS } from '@portal/contracts/paths';

/** Route table (docs/requirements/public-site.md#routes): components build links from here, never by hand. */
export const paths = {
  home: { path: '/', href: () => '/' },
  topic: { path: '/topics/:id', href: (id: string) => `/topics/${encodeURIComponent(id)}` },
  /** An editor's preview of a topic's draft, opened by the CMS with a signed link (docs/requirements/public-site.md#preview). */
  topicPreview: { path: '/preview/topics/:documentId' },
  /** `next`: a same-site path to return to after the login (docs/requirements/session.md#login). */
  login: {
    path: PAGE_PATHS.login,
    href: (next?: string) => (next ? `${PAGE_PATHS.login}?next=${encodeURIComponent(next)}` : PAGE_PATHS.login),
  },
  /** The portal home (docs/requirements/portal.md#portal-home): where a login lands without a `next`; logged in only. */
  portalHome: { path: '/portal', href: () => '/portal' },
  /** After a chosen logout (docs/requirements/session.md#logout): "You have logged out". */
  loggedOut: { path: '/logged-out', href: () => '/logged-out' },
  /** My account (docs/requirements/session.md#my-account): logged-in users only. */
  account: { path: '/account', href: () => '/account' },
  register: { path: '/register', href: () => '/register' },
  /** An end user's registration (docs/requirements/staff-accounts.md#end-users). */
  registerUser: { path: '/register/user', href: () => '/register/user' },
  /** The emailed verification link carries its token in the fragment (`#token=…`), never in the query. */
  verifyEmail: { path: PAGE_PATHS.verifyEmail, href: () => PAGE_PATHS.verifyEmail },
  /** The link that confirms a new email address (`#token=…`); it works logged in or not. */
  confirmEmail: { path: PAGE_PATHS.confirmEmail, href: () => PAGE_PATHS.confirmEmail },
  forgotUsername: { path: '/login-help/username', href: () => '/login-help/username' },
  forgotPassword: { path: '/login-help/password', href: () => '/login-help/password' },
  resetPassword: { path: PAGE_PATHS.resetPassword, href: () => PAGE_PATHS.resetPassword },
  reactivate: { path: PAGE_PATHS.reactivate, href: () => PAGE_PATHS.reactivate },
  findAdmin: { path: '/find-admin', href: () => '/find-admin' },
  ddeAccess: { path: '/dde-access', href: () => '/dde-access' },
  /** The administrator's console (docs/requirements/staff-accounts.md#the-administrators-console): logged-in users only. */
  admin: { path: '/admin', href: () => '/admin' },
  /** An administrator's invitation (`#token=…`; docs/requirements/staff-accounts.md#invitations); logged in or not. */
  invitation: { path: PAGE_PATHS.invitation, href: () => PAGE_PATHS.invitation },
  /** Where an administrator with overdue recertifications is held (docs/requirements/staff-accounts.md). */
  recertify: { path: PAGE_PATHS.recertify, href: () => PAGE_PATHS.recertify },
  /** The contractor's help-desk console (docs/requirements/help-desk.md): operators only, its own layout. */
  ops: { path: OPS_PAGE_PATHS.console, href: () => OPS_PAGE_PATHS.console },
  opsPerson: { path: OPS_PAGE_PATHS.person },
  opsLocation: { path: OPS_PAGE_PATHS.location },
} as const;

/**
 * Content pages: the pages that render CMS guidance (where CPT text needs the AMA license). Only they open the
 * jurisdiction picker and the license dialog by themselves; portal task pages never do
 * (docs/requirements/public-site.md#dialog-flow).
 */
export function isContentPage(pathname: string): boolean {
  return pathname.startsWith('/topics/');
}

/**
 * Pages that consume an emailed one-time link (its token in the fragment): a login never returns to one, as the link
 * is gone by then (docs/requirements/session.md#login). The invitation page is the exception while the tab still holds
 * its invitation (`rememberedInvitationToken`): its "I already have an account" comes back to accept it.
 */
export const oneTimeLinkPaths: readonly string[] = [
  PAGE_PATHS.verifyEmail,
  PAGE_PATHS.confirmEmail,
  PAGE_PATHS.resetPassword,
  PAGE_PATHS.reactivate,
  PAGE_PATHS.invitation,
];
