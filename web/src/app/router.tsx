import type { RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/errors/route-error-fallback';
import { paths } from '../config/paths';
import { pageHandle } from './page-handle';
import { RootLayout } from './root-layout';
import { openingThePage } from './server-state';

/**
 * Pages load on demand so each page's first download stays small (bench/web-size). Every route is server-rendered
 * (docs/decisions/0034-server-rendered-portal-pages.md): its `handle` says what the server needs beyond the route
 * itself — the content its first screen shows, or that it is for logged-in users only.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorFallback />,
    children: [
      {
        path: paths.home.path,
        lazy: async () => ({ Component: (await import('./routes/home')).HomeRoute }),
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
        path: paths.login.path,
        lazy: async () => {
          const opening = openingThePage();
          const { LoginRoute, loadPasswordStep } = await import('./routes/login');
          // Reached by a link: the page shows with its form (no server markup to keep while the form loads).
          if (!opening) await loadPasswordStep();
          return { Component: LoginRoute };
        },
        handle: pageHandle({
          serverQueries: async () => [
            (await import('../features/auth/api/system-use-notice')).getSystemUseNoticeQueryOptions(),
          ],
        }),
      },
      {
        path: paths.portalHome.path,
        lazy: async () => ({ Component: (await import('./routes/portal-home')).PortalHomeRoute }),
        handle: pageHandle({ requiresLogin: true }),
      },
      {
        path: paths.loggedOut.path,
        lazy: async () => ({ Component: (await import('./routes/logged-out')).LoggedOutRoute }),
      },
      {
        path: paths.account.path,
        lazy: async () => ({ Component: (await import('./routes/account')).AccountRoute }),
        handle: pageHandle({ requiresLogin: true }),
      },
      {
        path: paths.forgotUsername.path,
        lazy: async () => ({ Component: (await import('./routes/login-help')).ForgotUsernameRoute }),
      },
      {
        path: paths.forgotPassword.path,
        lazy: async () => ({ Component: (await import('./routes/login-help')).ForgotPasswordRoute }),
      },
      {
        path: paths.resetPassword.path,
        lazy: async () => ({ Component: (await import('./routes/login-help')).ResetPasswordRoute }),
      },
      {
        path: paths.reactivate.path,
        lazy: async () => ({ Component: (await import('./routes/login-help')).ReactivateRoute }),
      },
      {
        path: paths.findAdmin.path,
        lazy: async () => ({ Component: (await import('./routes/login-help')).FindAdminRoute }),
      },
      {
        path: paths.ddeAccess.path,
        lazy: async () => ({ Component: (await import('./routes/dde-access')).DdeAccessRoute }),
        handle: pageHandle({ requiresLogin: true }),
      },
      {
        path: paths.admin.path,
        lazy: async () => ({ Component: (await import('./routes/admin')).AdminRoute }),
        handle: pageHandle({ requiresLogin: true }),
      },
      {
        path: paths.recertify.path,
        lazy: async () => ({ Component: (await import('./routes/recertify')).RecertifyRoute }),
        handle: pageHandle({ requiresLogin: true }),
      },
      {
        path: paths.register.path,
        lazy: async () => ({ Component: (await import('./routes/register')).RegisterRoute }),
      },
      {
        path: paths.registerUser.path,
        lazy: async () => ({ Component: (await import('./routes/register-user')).RegisterUserRoute }),
      },
      {
        path: paths.verifyEmail.path,
        lazy: async () => ({ Component: (await import('./routes/verify-email')).VerifyEmailRoute }),
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
];
