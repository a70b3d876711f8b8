import {
  PASSKEY_LIMIT,
  type Passkey,
  type WebAuthnCredentialJson,
  type WebAuthnOptionsJson,
} from '@portal/contracts/account';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { passkeys, sessions, users } from '../../db/schema';
import { recordAudit } from '../../platform/audit';
import { rowsOf, type DbExecutor } from '../../platform/db-executor';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { endAllSessions, type LoadedSession } from '../../platform/session';

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server (docs/decisions/0023): registered on My account, used at login
 * instead of the TOTP code, never instead of the password. The relying party is `PUBLIC_URL`: its hostname is the
 * rpID and its origin the only origin accepted.
 */

/** A challenge is answered within this time or not at all (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = 'Medicare Provider Portal';

type ChallengePurpose = 'registration' | 'login';

/** Loaded at the first passkey call: the library (and its ASN.1/X.509 code) would add a second to every start. */
const webauthn = () => import('@simplewebauthn/server');

function relyingParty(request: FastifyRequest) {
  const url = new URL(request.server.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

function audit(
  request: FastifyRequest,
  db: DbExecutor,
  event: { userId: string; action: string; outcome: 'success' | 'failure'; reason?: string; count?: number },
) {
  return recordAudit(db, {
    actor: event.userId,
    action: event.action,
    target: event.userId,
    outcome: event.outcome,
    ip: request.ip,
    requestId: request.id,
    details: {
      method: 'passkey',
      ...(event.reason ? { reason: event.reason } : {}),
      ...(event.count !== undefined ? { count: event.count } : {}),
    },
  });
}

/** Keeps the challenge on the session row: any instance can verify the answer. A new one replaces an open one. */
async function storeChallenge(
  request: FastifyRequest,
  session: LoadedSession,
  challenge: string,
  purpose: ChallengePurpose,
) {
  await request.server.database.db
    .update(sessions)
    .set({
      webauthnChallenge: challenge,
      webauthnChallengePurpose: purpose,
      webauthnChallengeExpiresAt: new Date(request.server.clock().getTime() + CHALLENGE_TTL_MS),
    })
    .where(eq(sessions.idHash, session.idHash));
}

/**
 * Takes the session's open challenge for `purpose`: one atomic update clears it, so a second verification (a replay,
 * or a race between two instances) finds none. Null when there is none, it has expired or it was for the other step.
 */
async function takeChallenge(
  request: FastifyRequest,
  session: LoadedSession,
  purpose: ChallengePurpose,
): Promise<string | null> {
  const now = request.server.clock().toISOString();
  // The old value comes from a locked sub-select: RETURNING alone would show the cleared one.
  const result = await request.server.database.db.execute(sql`
    update ${sessions}
       set webauthn_challenge = null, webauthn_challenge_purpose = null, webauthn_challenge_expires_at = null
      from (select id_hash, webauthn_challenge as challenge from ${sessions} where id_hash = ${session.idHash} for update) old
     where ${sessions.idHash} = old.id_hash
       and old.challenge is not null
       and ${sessions.webauthnChallengePurpose} = ${purpose}
       and ${sessions.webauthnChallengeExpiresAt} > ${now}::timestamptz
    returning old.challenge`);
  return rowsOf<{ challenge: string }>(result)[0]?.challenge ?? null;
}

/**
 * What adding or removing a passkey does besides (docs/requirements/session.md#passkeys), as for the authenticator
 * app: every other session of the user ends (and with them every outstanding emailed link or code), the owner is
 * emailed and the event audited. Takes plain values (no request), like the services. Answers how many
 * sessions ended.
 */
async function passkeyChanged(
  tx: DbExecutor,
  ctx: { userId: string; sessionIdHash: string; ip?: string; requestId?: string },
  change: { kind: 'added' | 'removed'; name: string },
): Promise<number> {
  const sessionCount = await endAllSessions(tx, ctx.userId, { exceptIdHash: ctx.sessionIdHash });
  const [user] = await tx
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, ctx.userId));
  if (user)
    await enqueueEmail(tx, {
      to: user.email,
      template: 'passkey-changed',
      data: { firstName: user.firstName, change: change.kind, name: change.name },
    });
  await recordAudit(tx, {
    actor: ctx.userId,
    action: `passkey.${change.kind}`,
    target: ctx.userId,
    outcome: 'success',
    ip: ctx.ip,
    requestId: ctx.requestId,
    details: { method: 'passkey', sessionCount },
  });
  return sessionCount;
}

/** The plain context of `passkeyChanged` for a request's session. */
const changeContext = (request: FastifyRequest, session: LoadedSession) => ({
  userId: session.userId,
  sessionIdHash: session.idHash,
  ip: request.ip,
  requestId: request.id,
});

function toPasskey(row: typeof passkeys.$inferSelect): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    backedUp: row.backedUp,
  };
}

export async function listPasskeys(db: DbExecutor, userId: string): Promise<Passkey[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
  return rows.map(toPasskey);
}

async function credentialsOf(db: DbExecutor, userId: string) {
  return db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
}

/** The WebAuthn user handle of an account, base64url as the browser sends it back: the UTF-8 of its id. */
function userHandleOf(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

/** Registration, step 1: options for `navigator.credentials.create`; the user's passkeys are excluded. */
export async function registrationOptions(
  request: FastifyRequest,
  session: LoadedSession,
): Promise<WebAuthnOptionsJson> {
  const { db } = request.server.database;
  const existing = await credentialsOf(db, session.userId);
  if (existing.length >= PASSKEY_LIMIT) throw new PortalError(400, 'Passkey_Limit_Reached');
  const { rpID } = relyingParty(request);
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
  await storeChallenge(request, session, options.challenge, 'registration');
  return { ...options };
}

/** Registration, step 2: verifies the new credential against the session's challenge and stores it. */
export async function registerPasskey(
  request: FastifyRequest,
  session: LoadedSession,
  name: string,
  credential: WebAuthnCredentialJson,
): Promise<Passkey> {
  const { db } = request.server.database;
  const fail = async (reason: string) => {
    await audit(request, db, { userId: session.userId, action: 'passkey.added', outcome: 'failure', reason });
    return new PortalError(400, 'Passkey_Verification_Failed');
  };
  const challenge = await takeChallenge(request, session, 'registration');
  if (!challenge) throw await fail('no_challenge');
  const { rpID, origin } = relyingParty(request);
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
    request.log.info({ err: error }, 'passkey registration refused');
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
        createdAt: request.server.clock(),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new PortalError(400, 'Passkey_Verification_Failed'); // already registered (to anyone)
    await passkeyChanged(tx, changeContext(request, session), { kind: 'added', name: row.name });
    return toPasskey(row);
  });
  request.server.jobs.kick(OUTBOX_JOB);
  return passkey;
}

export async function renamePasskey(
  request: FastifyRequest,
  userId: string,
  id: string,
  name: string,
): Promise<Passkey> {
  const { db } = request.server.database;
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw new PortalError(404, 'Passkey_Not_Found');
  await audit(request, db, { userId, action: 'passkey.renamed', outcome: 'success' });
  return toPasskey(row);
}

export async function removePasskey(request: FastifyRequest, session: LoadedSession, id: string): Promise<void> {
  await request.server.database.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, session.userId)))
      .returning({ name: passkeys.name });
    if (!removed) throw new PortalError(404, 'Passkey_Not_Found');
    await passkeyChanged(tx, changeContext(request, session), { kind: 'removed', name: removed.name });
  });
  request.server.jobs.kick(OUTBOX_JOB);
}

/**
 * Login, step 1 (after the password): options for `navigator.credentials.get`. Only this user's passkeys are allowed
 * (no userless login: the password step already named the account).
 */
export async function loginOptions(request: FastifyRequest, session: LoadedSession): Promise<WebAuthnOptionsJson> {
  const { db } = request.server.database;
  const allowed = await credentialsOf(db, session.userId);
  if (!allowed.length) throw new PortalError(400, 'Passkey_None_Registered');
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(request).rpID,
    allowCredentials: allowed.map((c) => ({ id: c.id, transports: c.transports })),
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge(request, session, options.challenge, 'login');
  return { ...options };
}

/**
 * Login, step 2: verifies the assertion against the session's challenge and one of the user's passkeys, and updates
 * its counter and last use. Answers false when it is refused (the caller counts the failure).
 */
export async function verifyLoginAssertion(
  request: FastifyRequest,
  session: LoadedSession,
  credential: WebAuthnCredentialJson,
): Promise<boolean> {
  const { db } = request.server.database;
  const challenge = await takeChallenge(request, session, 'login');
  if (!challenge) return false;
  // WebAuthn L3 §7.2 step 6: the account was named before the ceremony, so a user handle, when the authenticator
  // sends one, must be this account's (the handle given at registration is the UTF-8 of the user's id).
  const userHandle = credential.response.userHandle;
  if (userHandle != null && userHandle !== userHandleOf(session.userId)) {
    request.log.info('passkey assertion refused: the user handle names another account');
    return false;
  }
  const [stored] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, session.userId), eq(passkeys.credentialId, credential.id)));
  if (!stored) return false;
  const { rpID, origin } = relyingParty(request);
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
        lastUsedAt: request.server.clock(),
      })
      .where(eq(passkeys.id, stored.id));
    return true;
  } catch (error) {
    // Wrong origin, rpID, challenge or signature, a counter that went backwards, a malformed answer.
    request.log.info({ err: error }, 'passkey assertion refused');
    return false;
  }
}
