/**
 * The administrator's API (docs/requirements/staff-accounts.md#the-administrators-console): the pending access
 * requests of the caller's locations and their decision, the people of those locations and the actions on them. Every
 * function takes a service context, the guard's grant (identity/admin-guard.ts: who acts and on which location) and
 * parsed input, never an HTTP request; the guard has already checked the scope (docs/decisions/0039-admin-guard.md).
 */
export { decideRequest, listPendingRequests } from './requests';
export { personDetail, searchPeople } from './people';
export {
  disablePerson,
  enablePerson,
  removeFromLocation,
  resetPersonMfa,
  setPersonRole,
  unlockPerson,
} from './actions';
/**
 * For other modules changing a location's people: the locations' administrators, locked (an invitation granting a
 * link), and THE rule of every change that removes or weakens an administrator (a recertification's remove).
 */
export { checkAdministratorChange, ENABLED_STATUSES, lockAdministrators } from './scope';
/**
 * For the help desk's console (modules/ops): the account changes themselves and the locks and rule an account-wide
 * change takes, with the operator as actor (docs/requirements/help-desk.md#actions).
 */
export {
  disableAccount,
  enableAccount,
  lockPersonLocations,
  recipient,
  Refusal,
  resetSecondFactor,
  runAuditedChange,
  unlockAccount,
  type AccountChange,
} from './actions';
