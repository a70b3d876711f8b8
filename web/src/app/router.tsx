import type { RouteObject } from 'react-router';
import { RouteErrorFallback } from '../components/errors/route-error-fallback';
import { paths } from '../config/paths';
import { RootLayout } from './root-layout';

/** Pages load on demand so the home page's first download stays small (bench/web-size). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorFallback />,
    children: [
      { path: paths.home.path, lazy: async () => ({ Component: (await import('./routes/home')).HomeRoute }) },
      { path: paths.topic.path, lazy: async () => ({ Component: (await import('./routes/topic')).TopicRoute }) },
      { path: paths.login.path, lazy: async () => ({ Component: (await import('./routes/login')).LoginRoute }) },
      {
        path: paths.portalHome.path,
        lazy: async () => ({ Component: (await import('./routes/portal-home')).PortalHomeRoute }),
      },
      {
        path: paths.loggedOut.path,
        lazy: async () => ({ Component: (await import('./routes/logged-out')).LoggedOutRoute }),
      },
      { path: paths.account.path, lazy: async () => ({ Component: (await import('./routes/account')).AccountRoute }) },
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
      },
      {
        path: paths.register.path,
        lazy: async () => ({ Component: (await import('./routes/register')).RegisterRoute }),
      },
      {
        path: paths.verifyEmail.path,
        lazy: async () => ({ Component: (await import('./routes/verify-email')).VerifyEmailRoute }),
      },
      {
        path: paths.confirmEmail.path,
        lazy: async () => ({ Component: (await import('./routes/confirm-email')).ConfirmEmailRoute }),
      },
      { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }) },
    ],
  },
];
