import { eq, sql } from 'drizzle-orm';
import { passkeys, sessions } from '../../db/schema';
import { rowsOf, type DbExecutor } from '../../platform/db-executor';
import type { ServiceContext } from '../../identity/service-context';
import type { LoadedSession } from '../../identity/sessions/store';

/**
 * What both WebAuthn ceremonies share (docs/decisions/0023): the relying party, the library, and the challenge kept
 * on the session row between the options and the answer.
 */

/** A challenge is answered within this time or not at all (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

type ChallengePurpose = 'registration' | 'login';

/** Loaded at the first passkey call: the library (and its ASN.1/X.509 code) would add a second to every start. */
export const webauthn = () => import('@simplewebauthn/server');

/** The relying party is `PUBLIC_URL`: its hostname is the rpID and its origin the only origin accepted. */
export function relyingParty(ctx: Pick<ServiceContext, 'config'>) {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** Keeps the challenge on the session row: any instance can verify the answer. A new one replaces an open one. */
export async function storeChallenge(
  ctx: Pick<ServiceContext, 'db' | 'now'>,
  session: LoadedSession,
  challenge: string,
  purpose: ChallengePurpose,
) {
  await ctx.db
    .update(sessions)
    .set({
      webauthnChallenge: challenge,
      webauthnChallengePurpose: purpose,
      webauthnChallengeExpiresAt: new Date(ctx.now().getTime() + CHALLENGE_TTL_MS),
    })
    .where(eq(sessions.idHash, session.idHash));
}

/**
 * Takes the session's open challenge for `purpose`: one atomic update clears it, so a second verification (a replay,
 * or a race between two instances) finds none. Null when there is none, it has expired or it was for the other step.
 */
export async function takeChallenge(
  ctx: Pick<ServiceContext, 'db' | 'now'>,
  session: LoadedSession,
  purpose: ChallengePurpose,
): Promise<string | null> {
  const now = ctx.now().toISOString();
  // The old value comes from a locked sub-select: RETURNING alone would show the cleared one.
  const result = await ctx.db.execute(sql`
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

/** The ids (and transports) of a user's passkeys: excluded at registration, allowed at login. */
export async function credentialsOf(db: DbExecutor, userId: string) {
  return db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
}
