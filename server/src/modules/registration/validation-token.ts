import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The provider step's `validationToken`: `<location id>.<expiry ms>.<HMAC-SHA-256>` under a key derived from the
 * session secret. Stateless (a person may retry the authority step with it until it expires) and bound to the one
 * location the provider step matched; it cannot be forged or moved to another location without the secret.
 */
const VERSION = 'v1';

function key(secret: string): Buffer {
  return createHmac('sha256', secret).update('registration-validation-token').digest();
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', key(secret)).update(payload).digest('base64url');
}

export function issueValidationToken(secret: string, locationId: string, expiresAt: Date): string {
  const payload = `${VERSION}.${locationId}.${expiresAt.getTime()}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The location the token was issued for, or null when it is malformed, altered or expired at `now`. */
export function readValidationToken(secret: string, token: string, now: Date): string | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [version, locationId, expires, signature] = parts as [string, string, string, string];
  if (version !== VERSION || !/^[0-9a-f-]{36}$/.test(locationId) || !/^\d{1,15}$/.test(expires)) return null;
  const expected = Buffer.from(sign(secret, `${version}.${locationId}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return Number(expires) > now.getTime() ? locationId : null;
}
