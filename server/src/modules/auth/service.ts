/**
 * The auth module's service (docs/requirements/session.md): login, second factor, first enrolment, an expired
 * password's change, re-authentication and logout, one flow per file. Every function takes a `ServiceContext` and
 * parsed input, never an HTTP request. Other modules use these exports only: the passkey login
 * (`checkSecondFactor`, `completeSecondFactor`) and My account (`verifyAccountPassword`).
 */
export { confirmEnrolment, startEnrolment } from './enrolment';
export { completePasswordChange } from './expired-password';
export { logout } from './logout';
export { sessionAnswer, SESSION_WITH_STAFF_FLAGS } from './session-state';
export { loginWithPassword } from './password-login';
export { reauthenticate, verifyAccountPassword } from './reauthentication';
export { checkSecondFactor, completeMfa, completeSecondFactor } from './second-factor';
