import { keyedHash } from '../platform/encryption';

/**
 * The target recorded when a typed username matches no account: never the text typed (people type their password into
 * the username field), but a keyed fingerprint of it, so repeated attempts on one name can still be grouped.
 */
export function unknownUsernameTarget(encryptionKey: string, typed: string): string {
  return `unknown:${keyedHash(encryptionKey, 'audit-unknown-username', typed.trim().toLowerCase()).slice(0, 16)}`;
}
