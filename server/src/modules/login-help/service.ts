/**
 * The login-help module's service (docs/architecture.md#server-modules): one file per flow, each taking a
 * `ServiceContext` and its parsed input. Other modules and the routes import the flows from here.
 */
export { forgotUsername } from './forgot-username';
export { forgotPassword, resetPassword, resetPasswordQuestion } from './forgot-password';
export {
  completeReactivation,
  requestReactivationCode,
  verifyReactivationAnswer,
  verifyReactivationCode,
} from './reactivation';
