import { generate, generateSecret, generateURI, verify } from 'otplib';
import { toString as qrToString } from 'qrcode';
import { TOTP_CODE_PATTERN } from '@portal/contracts/one-time-code';

/**
 * TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, a 160-bit base32 secret
 * (docs/requirements/session.md#mfa). A code is accepted one step either side of now, and only for a step later
 * than the last one accepted, so each code works once.
 */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Medicare Provider Portal';

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The key grouped in fours for typing by hand (apps ignore the spaces). */
export function groupedKey(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

export function otpauthUrl(secret: string, username: string): string {
  return generateURI({ issuer: ISSUER, label: username, secret });
}

export function qrSvg(url: string): Promise<string> {
  return qrToString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The time step a code matched, or null. `afterStep`: the last step accepted before (replays are refused). */
export async function verifyTotp(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  if (!TOTP_CODE_PATTERN.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** The current code (demo:totp and tests). */
export function currentTotp(secret: string, now: Date = new Date()): Promise<string> {
  return generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
}
