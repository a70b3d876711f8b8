import { issueSignedLocationToken, readSignedLocationToken } from '../../identity/locations/signed-token';

/**
 * The provider step's `validationToken`: a signed location token (identity/locations/signed-token.ts) for the
 * registration. Stateless (a person may retry the authority step with it until it expires) and bound to the one
 * location the provider step matched.
 */
const PURPOSE = 'registration-validation-token';

export function issueValidationToken(secret: string, locationId: string, expiresAt: Date): string {
  return issueSignedLocationToken(secret, PURPOSE, locationId, expiresAt);
}

/** The location the token was issued for, or null when it is malformed, altered or expired at `now`. */
export function readValidationToken(secret: string, token: string, now: Date): string | null {
  return readSignedLocationToken(secret, PURPOSE, token, now);
}
