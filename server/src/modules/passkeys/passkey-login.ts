import type { WebAuthnCredentialJson, WebAuthnOptionsJson } from '@portal/contracts/account';
import type { LoginCompletion } from '@portal/contracts/auth';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { and, eq } from 'drizzle-orm';
import { passkeys } from '../../db/schema';
import { PortalError } from '../../platform/portal-error';
import type { ServiceContext } from '../../identity/service-context';
import type { LoadedSession } from '../../identity/sessions/store';
// The auth module's declared service: a passkey completes the login exactly like a TOTP code.
import { checkSecondFactor, completeSecondFactor } from '../auth/service';
import { CHALLENGE_TTL_MS, credentialsOf, relyingParty, storeChallenge, takeChallenge, webauthn } from './ceremony';

/** A passkey as the login's second factor, never instead of the password (docs/requirements/session.md#passkeys). */

/** The WebAuthn user handle of an account, base64url as the browser sends it back: the UTF-8 of its id. */
function userHandleOf(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

/**
 * Login, step 1 (after the password): options for `navigator.credentials.get`. Only this user's passkeys are allowed
 * (no userless login: the password step already named the account).
 */
export async function loginOptions(ctx: ServiceContext, session: LoadedSession): Promise<WebAuthnOptionsJson> {
  const allowed = await credentialsOf(ctx.db, session.userId);
  if (!allowed.length) throw new PortalError(400, 'Passkey_None_Registered');
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: allowed.map((c) => ({ id: c.id, transports: c.transports })),
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge(ctx, session, options.challenge, 'login');
  return { ...options };
}

/**
 * Login, step 2: verifies the assertion against the session's challenge and one of the user's passkeys, and updates
 * its counter and last use. Answers false when it is refused (the caller counts the failure).
 */
async function verifyLoginAssertion(
  ctx: ServiceContext,
  session: LoadedSession,
  credential: WebAuthnCredentialJson,
): Promise<boolean> {
  const { db } = ctx;
  const challenge = await takeChallenge(ctx, session, 'login');
  if (!challenge) return false;
  // WebAuthn L3 §7.2 step 6: the account was named before the ceremony, so a user handle, when the authenticator
  // sends one, must be this account's (the handle given at registration is the UTF-8 of the user's id).
  const userHandle = credential.response.userHandle;
  if (userHandle != null && userHandle !== userHandleOf(session.userId)) {
    ctx.log.info('passkey assertion refused: the user handle names another account');
    return false;
  }
  const [stored] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, session.userId), eq(passkeys.credentialId, credential.id)));
  if (!stored) return false;
  const { rpID, origin } = relyingParty(ctx);
  try {
    const { verifyAuthenticationResponse } = await webauthn();
    const result = await verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: stored.signCount,
        transports: stored.transports,
      },
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    await db
      .update(passkeys)
      .set({
        signCount: result.authenticationInfo.newCounter,
        backedUp: result.authenticationInfo.credentialBackedUp,
        lastUsedAt: ctx.now(),
      })
      .where(eq(passkeys.id, stored.id));
    return true;
  } catch (error) {
    // Wrong origin, rpID, challenge or signature, a counter that went backwards, a malformed answer.
    ctx.log.info({ err: error }, 'passkey assertion refused');
    return false;
  }
}

/**
 * `POST` of the login's passkey: the assertion is the second factor. A refused one is counted against the pending
 * login and the account like a wrong code, and answers 401 like one: no login yet.
 */
export async function loginWithPasskey(
  ctx: ServiceContext,
  session: LoadedSession,
  credential: WebAuthnCredentialJson,
): Promise<LoginCompletion> {
  const check = () => verifyLoginAssertion(ctx, session, credential);
  if (!(await checkSecondFactor(ctx, session, 'passkey', check)))
    throw new PortalError(401, 'Passkey_Verification_Failed');
  return completeSecondFactor(ctx, session, 'passkey');
}
