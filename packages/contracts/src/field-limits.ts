/**
 * Field limits a form page needs on its first screen, without zod (docs/decisions/0034-server-rendered-portal-pages.md):
 * a page that imports one of them does not build the schemas of the module that checks it. Each schema module
 * re-exports its own, so every import path still works.
 */

/** Dates the pickers accept (docs/requirements/portal.md#forms). */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2099-12-31';

/** How many security questions an account answers. */
export const SECURITY_QUESTION_COUNT = 3;

/** The longest message a visitor may leave for a location's administrators (find my administrator). */
export const FIND_ADMIN_CONTACT_MESSAGE_MAX = 500;

/** The most locations one registration may ask for (a billing service asks for more after logging in). */
export const MAX_REGISTRATION_LOCATIONS = 10;

/** A user may register at most this many passkeys (My account shows the limit before its list is checked). */
export const PASSKEY_LIMIT = 10;
export const PASSKEY_NAME_MAX = 60;
