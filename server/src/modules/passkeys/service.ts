/**
 * Passkeys (WebAuthn) with @simplewebauthn/server (docs/decisions/0023): registered on My account, used at login
 * instead of the TOTP code, never instead of the password. One flow per file; every function takes a
 * `ServiceContext` (or the database) and parsed input, never an HTTP request.
 */
export { listPasskeys, removePasskey, renamePasskey } from './management';
export { loginOptions, loginWithPasskey } from './passkey-login';
export { registerPasskey, registrationOptions } from './registration';
