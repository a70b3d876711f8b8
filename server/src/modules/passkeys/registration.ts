import {
  PASSKEY_LIMIT,
  type Passkey,
  type WebAuthnCredentialJson,
  type WebAuthnOptionsJson,
} from '@portal/contracts/account';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { count, eq } from 'drizzle-orm';
import { passkeys } from '../../db/schema';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import type { ServiceContext } from '../../identity/service-context';
import type { LoadedSession } from '../../identity/sessions/store';
import { CHALLENGE_TTL_MS, credentialsOf, relyingParty, storeChallenge, takeChallenge, webauthn } from './ceremony';
import { auditPasskey, passkeyChanged, toPasskey } from './management';

/** Adding a passkey on My account (docs/requirements/session.md#passkeys): options, then the verified credential. */

const RP_NAME = 'Medicare Provider Portal';

/** Registration, step 1: options for `navigator.credentials.create`; the user's passkeys are excluded. */
export async function registrationOptions(ctx: ServiceContext, session: LoadedSession): Promise<WebAuthnOptionsJson> {
  const existing = await credentialsOf(ctx.db, session.userId);
  if (existing.length >= PASSKEY_LIMIT) throw new PortalError(400, 'Passkey_Limit_Reached');
  const { rpID } = relyingParty(ctx);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: session.username,
    // The user handle is the account's random id: stable across the user's passkeys, and no personal data.
    userID: new TextEncoder().encode(session.userId),
    userDisplayName: `${session.firstName} ${session.lastName}`.trim(),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await storeChallenge(ctx, session, options.challenge, 'registration');
  return { ...options };
}

/** Registration, step 2: verifies the new credential against the session's challenge and stores it. */
export async function registerPasskey(
  ctx: ServiceContext,
  session: LoadedSession,
  name: string,
  credential: WebAuthnCredentialJson,
): Promise<Passkey> {
  const { db } = ctx;
  const fail = async (reason: string) => {
    await auditPasskey(ctx, db, { userId: session.userId, action: 'passkey.added', outcome: 'failure', reason });
    return new PortalError(400, 'Passkey_Verification_Failed');
  };
  const challenge = await takeChallenge(ctx, session, 'registration');
  if (!challenge) throw await fail('no_challenge');
  const { rpID, origin } = relyingParty(ctx);
  let info;
  try {
    const { verifyRegistrationResponse } = await webauthn();
    const result = await verifyRegistrationResponse({
      response: credential as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    info = result.verified ? result.registrationInfo : undefined;
  } catch (error) {
    ctx.log.info({ err: error }, 'passkey registration refused');
  }
  if (!info) throw await fail('not_verified');
  const registered = info.credential;
  const passkey = await db.transaction(async (tx) => {
    // Counted again inside the transaction: two registrations at once cannot pass the limit together.
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(passkeys)
      .where(eq(passkeys.userId, session.userId));
    if (n >= PASSKEY_LIMIT) throw new PortalError(400, 'Passkey_Limit_Reached');
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: session.userId,
        credentialId: registered.id,
        publicKey: Buffer.from(registered.publicKey).toString('base64url'),
        signCount: registered.counter,
        transports: registered.transports ?? [],
        name,
        backedUp: info.credentialBackedUp,
        createdAt: ctx.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new PortalError(400, 'Passkey_Verification_Failed'); // already registered (to anyone)
    await passkeyChanged(ctx, tx, session, { kind: 'added', name: row.name });
    return toPasskey(row);
  });
  ctx.jobs.kick(OUTBOX_JOB);
  return passkey;
}
