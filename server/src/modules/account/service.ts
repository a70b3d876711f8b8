/**
 * My account (docs/requirements/session.md#my-account): the module's service, one file per flow. Routes and other
 * modules import from here, so the files behind it can move without their imports changing.
 */
export { accountProfile } from './profile';
export {
  changePassword,
  changePhone,
  changeSecurityAnswers,
  confirmMfaReset,
  renewRecoveryCodes,
  startMfaReset,
} from './credentials';
export { confirmEmailChange, requestEmailChange } from './email-change';
export { accountActivity, describeActivity, describeBrowser, endOtherSessions, listSessions } from './sessions';
