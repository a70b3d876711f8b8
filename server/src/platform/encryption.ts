import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts a small secret at rest (a TOTP secret) with AES-256-GCM under ENCRYPTION_KEY (64 hex characters).
 * Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url); the version leaves room to rotate the key later.
 */
export function encryptSecret(keyHex: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Decrypts `encryptSecret`'s output; throws when it was altered or encrypted under another key. */
export function decryptSecret(keyHex: string, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined)
    throw new Error('unknown encrypted secret format');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A keyed hash (HMAC-SHA-256, hex) for high-entropy one-time values such as recovery codes: without the key a stolen
 * table cannot be searched offline; a key of its own per purpose is derived from ENCRYPTION_KEY.
 */
export function keyedHash(keyHex: string, purpose: string, value: string): string {
  const key = createHmac('sha256', Buffer.from(keyHex, 'hex')).update(purpose).digest();
  return createHmac('sha256', key).update(value).digest('hex');
}
