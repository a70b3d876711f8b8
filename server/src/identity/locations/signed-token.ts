import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A stateless, signed handle naming one provider location: `v1.<location id>.<expiry ms>.<HMAC-SHA-256>` under a key
 * derived from the session secret and a `purpose`, so a token issued for one purpose (the registration's provider
 * step, find my administrator's contact relay) is refused for another. It cannot be forged, moved to another
 * location or kept past its expiry without the secret; it holds nothing a visitor should not see (an opaque id).
 */
const VERSION = 'v1';

function key(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest();
}

function sign(secret: string, purpose: string, payload: string): string {
  return createHmac('sha256', key(secret, purpose)).update(payload).digest('base64url');
}

export function issueSignedLocationToken(secret: string, purpose: string, locationId: string, expiresAt: Date): string {
  const payload = `${VERSION}.${locationId}.${expiresAt.getTime()}`;
  return `${payload}.${sign(secret, purpose, payload)}`;
}

/** The location the token was issued for, or null when it is malformed, altered, of another purpose or expired. */
export function readSignedLocationToken(secret: string, purpose: string, token: string, now: Date): string | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [version, locationId, expires, signature] = parts as [string, string, string, string];
  if (version !== VERSION || !/^[0-9a-f-]{36}$/.test(locationId) || !/^\d{1,15}$/.test(expires)) return null;
  const expected = Buffer.from(sign(secret, purpose, `${version}.${locationId}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return Number(expires) > now.getTime() ? locationId : null;
}
