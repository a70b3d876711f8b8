import { z } from 'zod/mini';

/**
 * One-time codes as people type them (docs/requirements/session.md#mfa): authenticator apps show a TOTP code as
 * "110 761", recovery codes come in dashed groups, an emailed code may be copied with a space. Every code field (the
 * login's second factor, the authenticator setup, My account's new authenticator, self-reactivation) takes the code
 * through this one normaliser, in the browser's form and again in the server's request schema.
 */
export function normaliseOneTimeCode(typed: string): string {
  return typed.replace(/[\s-]+/g, '');
}

/** A string field holding a one-time code: normalised first, then checked. */
export function oneTimeCodeSchema(...checks: Parameters<ReturnType<typeof z.string>['check']>) {
  // The typed text is bounded too: separators do not make room for a longer code.
  return z.pipe(
    z.pipe(z.string().check(z.maxLength(128)), z.transform(normaliseOneTimeCode)),
    z.string().check(...checks),
  );
}

/** The digits of a TOTP code (RFC 6238 as authenticator apps show it). */
export const TOTP_CODE_LENGTH = 6;
/** A TOTP code once normalised: exactly `TOTP_CODE_LENGTH` digits (the server's check of a code uses it too). */
export const TOTP_CODE_PATTERN = new RegExp(`^\\d{${TOTP_CODE_LENGTH}}$`);

/** A 6-digit TOTP code from an authenticator app, spaces and hyphens allowed. */
export const TotpCodeSchema = oneTimeCodeSchema(z.regex(TOTP_CODE_PATTERN));
