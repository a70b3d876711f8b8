/**
 * Registration's flows other modules call (docs/architecture.md#server-modules): the help desk's console sends a
 * pending account's verification email again (docs/requirements/help-desk.md#actions).
 */
export { queueVerificationEmail } from './email-verification';
