import { FindAdminPage } from '../../features/login-help/find-admin-page';
import { ForgotPasswordPage } from '../../features/login-help/forgot-password-page';
import { ForgotUsernamePage } from '../../features/login-help/forgot-username-page';
import { ReactivatePage } from '../../features/login-help/reactivate-page';
import { ResetPasswordPage } from '../../features/login-help/reset-password-page';

/** The login-help pages share one lazy chunk: someone who needs one often tries the next. */
export const ForgotUsernameRoute = () => <ForgotUsernamePage />;
export const ForgotPasswordRoute = () => <ForgotPasswordPage />;
export const ResetPasswordRoute = () => <ResetPasswordPage />;
export const ReactivateRoute = () => <ReactivatePage />;
export const FindAdminRoute = () => <FindAdminPage />;
