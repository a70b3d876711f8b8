/**
 * The help desk's console (docs/requirements/help-desk.md, docs/decisions/0074-help-desk-console.md): sign-in through
 * the enterprise directory, the operator's session, find a person, a person's and a location's page, and the actions.
 * Every function takes a plain context (and the operator the guard established), never an HTTP request.
 */
export { finishSignIn, signOut, startSignIn, SIGN_IN_TTL_MS } from './sign-in';
export {
  operatorOfSession,
  operatorSessionView,
  operatorActor,
  OPS_SESSION_CLEANUP_JOB,
  opsSessionCleanupJob,
  type Operator,
  type OpsContext,
} from './session';
export { personPage, revealField, searchPeople } from './people';
export { locationPage, restoreAdministrator } from './locations';
export {
  opsDisable,
  opsEnable,
  opsEndSessions,
  opsResendVerification,
  opsResetMfa,
  opsUnlock,
  type OpsActionContext,
} from './actions';
