import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/errors/route-error-fallback';
import { paths } from '../config/paths';
import type { LazyPart } from '../lib/lazy-part';
import { pageHandle } from './page-handle';
import { RootLayout } from './root-layout';
import { openingThePage } from './server-state';

/**
 * The `lazy` of a route whose page has parts that hydrate on their own (`lazyPart`, lib/lazy-part.tsx): the parts'
 * code starts loading as soon as the route module is here. Opening the page, the page hydrates without waiting for
 * them (their server markup stays until their code is there); reached by a link in the app, the route waits for them,
 * so the page never shows without them (docs/decisions/0060).
 */
function pageWithParts(
  load: () => Promise<{ Component: ComponentType; parts: Pick<LazyPart<never>, 'load'>[] }>,
): () => Promise<{ Component: ComponentType }> {
  return async () => {
    const opening = openingThePage();
    const { Component, parts } = await load();
    const loading = Promise.all(parts.map((part) => part.load()));
    if (!opening) await loading;
    return { Component };
  };
}

/**
 * Pages load on demand so each page's first download stays small (bench/web-size). Every route is server-rendered
 * (docs/decisions/0060): its `handle` says what the server needs beyond the route
 * itself — the content its first screen shows, or that it is for logged-in users only.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorFallback />,
    children: [
      {
        path: paths.home.path,
        lazy: pageWithParts(async () => {
          const { HomeRoute, homeParts } = await import('./routes/home');
          return { Component: HomeRoute, parts: homeParts };
        }),
        handle: pageHandle({
          serverQueries: async () => {
            const [home, topics] = await Promise.all([
              import('../features/content/api/get-home-page'),
              import('../features/content/api/get-topics'),
            ]);
            return [home.getHomePageQueryOptions(), topics.getTopicsQueryOptions()];
          },
        }),
      },
      {
        path: paths.topic.path,
        lazy: async () => ({ Component: (await import('./routes/topic')).TopicRoute }),
        handle: pageHandle({
          serverQueries: async ({ id }) => [
            (await import('../features/content/api/get-topic')).getTopicQueryOptions(id ?? ''),
          ],
        }),
      },
      {
        // Never server-rendered: the server sends the shell for /preview/ (drafts stay out of shared pages).
        path: paths.topicPreview.path,
        lazy: async () => ({ Component: (await import('./routes/topic')).TopicPreviewRoute }),
      },
      {
        path: paths.login.path,
        lazy: pageWithParts(async () => {
          const { LoginRoute, loginParts } = await import('./routes/login');
          return { Component: LoginRoute, parts: loginParts };
        }),
        handle: pageHandle({
          serverQueries: async () => [
            (await import('../features/auth/api/system-use-notice')).getSystemUseNoticeQueryOptions(),
          ],
        }),
      },
      {
        path: paths.portalHome.path,
        lazy: pageWithParts(async () => {
          const { PortalHomeRoute, portalHomeParts } = await import('./routes/portal-home');
          return { Component: PortalHomeRoute, parts: portalHomeParts };
        }),
        handle: pageHandle({
          requiresLogin: true,
          sessionQueries: async () =>
            (await import('../features/portal-home/api/portal-home-api')).portalHomeSessionQueries(),
        }),
      },
      {
        path: paths.loggedOut.path,
        lazy: async () => ({ Component: (await import('./routes/logged-out')).LoggedOutRoute }),
      },
      {
        path: paths.account.path,
        lazy: pageWithParts(async () => {
          const { AccountRoute, accountParts } = await import('./routes/account');
          return { Component: AccountRoute, parts: accountParts };
        }),
        handle: pageHandle({
          requiresLogin: true,
          sessionQueries: async () => (await import('../features/account/api/account-api')).accountSessionQueries(),
        }),
      },
      {
        path: paths.forgotUsername.path,
        lazy: pageWithParts(async () => {
          const { ForgotUsernameRoute, forgotUsernameParts } = await import('./routes/login-help');
          return { Component: ForgotUsernameRoute, parts: forgotUsernameParts };
        }),
      },
      {
        path: paths.forgotPassword.path,
        lazy: pageWithParts(async () => {
          const { ForgotPasswordRoute, forgotPasswordParts } = await import('./routes/login-help');
          return { Component: ForgotPasswordRoute, parts: forgotPasswordParts };
        }),
      },
      {
        path: paths.resetPassword.path,
        lazy: pageWithParts(async () => {
          const { ResetPasswordRoute, resetPasswordParts } = await import('./routes/login-help');
          return { Component: ResetPasswordRoute, parts: resetPasswordParts };
        }),
      },
      {
        path: paths.reactivate.path,
        lazy: pageWithParts(async () => {
          const { ReactivateRoute, reactivateParts } = await import('./routes/login-help');
          return { Component: ReactivateRoute, parts: reactivateParts };
        }),
      },
      {
        path: paths.findAdmin.path,
        lazy: pageWithParts(async () => {
          const { FindAdminRoute, findAdminParts } = await import('./routes/login-help');
          return { Component: FindAdminRoute, parts: findAdminParts };
        }),
      },
      {
        path: paths.ddeAccess.path,
        lazy: pageWithParts(async () => {
          const { DdeAccessRoute, ddeAccessParts } = await import('./routes/dde-access');
          return { Component: DdeAccessRoute, parts: ddeAccessParts };
        }),
        handle: pageHandle({
          requiresLogin: true,
          sessionQueries: async () => (await import('../features/dde-access/api/dde-access-api')).ddeSessionQueries(),
        }),
      },
      {
        path: paths.admin.path,
        lazy: pageWithParts(async () => {
          const { AdminRoute, adminParts } = await import('./routes/admin');
          return { Component: AdminRoute, parts: adminParts };
        }),
        handle: pageHandle({
          requiresLogin: true,
          sessionQueries: async () => (await import('../features/admin/api/admin-api')).adminSessionQueries(),
        }),
      },
      {
        path: paths.recertify.path,
        lazy: async () => ({ Component: (await import('./routes/recertify')).RecertifyRoute }),
        handle: pageHandle({
          requiresLogin: true,
          sessionQueries: async () =>
            (await import('../features/admin/recertification/recertification-api')).recertificationSessionQueries(),
        }),
      },
      {
        path: paths.register.path,
        lazy: pageWithParts(async () => {
          const { RegisterRoute, registerParts } = await import('./routes/register');
          return { Component: RegisterRoute, parts: registerParts };
        }),
      },
      {
        path: paths.registerUser.path,
        lazy: pageWithParts(async () => {
          const { RegisterUserRoute, registerUserParts } = await import('./routes/register-user');
          return { Component: RegisterUserRoute, parts: registerUserParts };
        }),
      },
      {
        path: paths.verifyEmail.path,
        lazy: pageWithParts(async () => {
          const { VerifyEmailRoute, verifyEmailParts } = await import('./routes/verify-email');
          return { Component: VerifyEmailRoute, parts: verifyEmailParts };
        }),
      },
      {
        path: paths.confirmEmail.path,
        lazy: async () => ({ Component: (await import('./routes/confirm-email')).ConfirmEmailRoute }),
      },
      {
        path: paths.invitation.path,
        lazy: async () => ({ Component: (await import('./routes/invitation')).InvitationRoute }),
      },
      { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }) },
    ],
  },
  {
    // The contractor's help-desk console (docs/requirements/help-desk.md): its own layout and session, never the
    // portal's header or dialogs. The server answers 404 to a provider session on every page under it, and draws each
    // for the console session its cookie opens (docs/decisions/0088).
    path: paths.ops.path,
    lazy: async () => ({ Component: (await import('./routes/ops')).OpsLayout }),
    errorElement: <RouteErrorFallback />,
    handle: pageHandle({
      consoleReads: async () => (await import('../features/ops/api/ops-page-reads')).readConsolePage,
    }),
    children: [
      {
        index: true,
        lazy: pageWithParts(async () => {
          const { FindPersonPage, findPersonParts } = await import('./routes/ops');
          return { Component: FindPersonPage, parts: findPersonParts };
        }),
      },
      { path: paths.opsPerson.path, lazy: async () => ({ Component: (await import('./routes/ops')).PersonPage }) },
      {
        path: paths.opsLocation.path,
        lazy: async () => ({ Component: (await import('./routes/ops')).LocationPage }),
      },
      { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }) },
    ],
  },
];
