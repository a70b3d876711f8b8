import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { WebAuthnCredentialJson, WebAuthnOptionsJson } from '@portal/contracts';

/**
 * The browser's side of a passkey (WebAuthn) ceremony with `@simplewebauthn/browser`, shared by the login's
 * passkey step and My account's "Add a passkey" (docs/decisions/0024-web-account-page-and-passkeys.md). The server's
 * options go to the browser unchanged; the credential goes back unchanged.
 */

/** Whether this browser can use passkeys at all (the passkey controls are hidden otherwise). */
export const passkeysSupported = () => typeof window !== 'undefined' && browserSupportsWebAuthn();

/** Registration: the browser asks the user's authenticator for a new passkey. */
export async function createPasskey(options: WebAuthnOptionsJson): Promise<WebAuthnCredentialJson> {
  const credential = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return credential as unknown as WebAuthnCredentialJson;
}

/** Login: the browser asks the authenticator to sign the server's challenge with one of the user's passkeys. */
export async function getPasskeyAssertion(options: WebAuthnOptionsJson): Promise<WebAuthnCredentialJson> {
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return credential as unknown as WebAuthnCredentialJson;
}

/**
 * A readable sentence for a ceremony that failed in the browser (cancelled, timed out, already registered,
 * unsupported); undefined for anything else (a server answer keeps its error code and CMS text).
 */
export function passkeyCeremonyErrorText(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This device already holds a passkey for your account.';
  // The user closed the browser's passkey window, or it timed out: both arrive as NotAllowedError.
  if (err.name === 'NotAllowedError' || err.name === 'AbortError')
    return 'The passkey request was cancelled or timed out.';
  if (err instanceof WebAuthnError || err.name === 'NotSupportedError' || err.name === 'SecurityError')
    return 'This browser or device could not use a passkey here.';
  return undefined;
}
