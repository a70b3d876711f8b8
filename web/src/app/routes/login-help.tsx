import { lazyPart } from '../../lib/lazy-part';

/**
 * The login-help pages, each a part that hydrates on its own (lib/lazy-part.tsx): this module is their routes alone,
 * and each page's form code (react-hook-form, the contracts' schemas, MUI's inputs; the date picker on two of them)
 * is a chunk of its own, loaded for that page only, evaluated and hydrated apart from the rest of the page.
 */
const forgotUsername = lazyPart(
  () => import('../../features/login-help/forgot-username-page').then((m) => m.ForgotUsernamePage),
  { reserve: '70vh' },
);
const forgotPassword = lazyPart(
  () => import('../../features/login-help/forgot-password-page').then((m) => m.ForgotPasswordPage),
  { reserve: '70vh' },
);
const resetPassword = lazyPart(
  () => import('../../features/login-help/reset-password-page').then((m) => m.ResetPasswordPage),
  { reserve: '70vh' },
);
const reactivate = lazyPart(() => import('../../features/login-help/reactivate-page').then((m) => m.ReactivatePage), {
  reserve: '70vh',
});
const findAdmin = lazyPart(() => import('../../features/login-help/find-admin-page').then((m) => m.FindAdminPage), {
  reserve: '70vh',
});

export const forgotUsernameParts = [forgotUsername];
export const forgotPasswordParts = [forgotPassword];
export const resetPasswordParts = [resetPassword];
export const reactivateParts = [reactivate];
export const findAdminParts = [findAdmin];

export const ForgotUsernameRoute = () => <forgotUsername.Part />;
export const ForgotPasswordRoute = () => <forgotPassword.Part />;
export const ResetPasswordRoute = () => <resetPassword.Part />;
export const ReactivateRoute = () => <reactivate.Part />;
export const FindAdminRoute = () => <findAdmin.Part />;
