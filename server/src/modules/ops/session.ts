import type { OperatorRole, OperatorSession } from '@portal/contracts/ops';
import { eq, sql } from 'drizzle-orm';
import { operators, opsSessions } from '../../db/schema';
import { decryptSecret, encryptSecret } from '../../platform/encryption';
import type { Job } from '../../platform/jobs';
import { deleteBatch, retentionJob, type PurgeSchedule } from '../../platform/retention';
import { PortalError } from '../../platform/portal-error';
import type { ServiceContext } from '../../identity/service-context';
import { hashSessionId, newSessionId } from '../../identity/sessions/store';
import { recheckIdentity, type DirectoryIdentity, type DirectoryTokens } from './directory';

/**
 * The console's own sessions (docs/requirements/help-desk.md#sign-in): apart from provider sessions (their own table
 * and cookie), 15 minutes idle and 8 hours absolute by default, and confirmed with the directory again at the first
 * request after OPS_ROLE_RECHECK_MS: a person signed out there, or no longer in a mapped group, loses the session.
 */

export type OpsContext = Pick<ServiceContext, 'db' | 'now' | 'config' | 'secrets' | 'client' | 'log'>;

/** The operator of a console request. */
export interface Operator {
  operatorId: string;
  subject: string;
  name: string;
  email: string;
  roles: OperatorRole[];
  sessionIdHash: string;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** The audit actor of an operator: never a user id (operators are not users). */
export function operatorActor(operatorId: string): string {
  return `operator:${operatorId}`;
}

const encrypt = (ctx: OpsContext, value: string | null) =>
  value === null ? null : encryptSecret(ctx.secrets.encryptionKey, value);
const decrypt = (ctx: OpsContext, value: string | null) =>
  value === null ? null : decryptSecret(ctx.secrets.encryptionKey, value);

/** Records the operator as the directory describes them now (one row per issuer and subject). */
export async function upsertOperator(ctx: OpsContext, identity: DirectoryIdentity): Promise<string> {
  const issuer = ctx.config.ops.oidc!.issuer;
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(operators)
    .values({
      issuer,
      subject: identity.subject,
      name: identity.name,
      email: identity.email,
      roles: identity.roles,
      lastSignInAt: now,
    })
    .onConflictDoUpdate({
      target: [operators.issuer, operators.subject],
      set: { name: identity.name, email: identity.email, roles: identity.roles, lastSignInAt: now },
    })
    .returning({ id: operators.id });
  return row!.id;
}

/** Opens a console session for the operator; answers its id (the cookie's value; only its hash is stored). */
export async function createOpsSession(ctx: OpsContext, operatorId: string, tokens: DirectoryTokens): Promise<string> {
  const id = newSessionId();
  const now = ctx.now();
  await ctx.db.insert(opsSessions).values({
    idHash: hashSessionId(id),
    operatorId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.ops.absoluteMs),
    checkedAt: now,
    accessTokenEncrypted: encrypt(ctx, tokens.accessToken),
    refreshTokenEncrypted: encrypt(ctx, tokens.refreshToken),
    idTokenEncrypted: encrypt(ctx, tokens.idToken),
  });
  return id;
}

/** Ends a console session; answers its ID token (for the directory's end-session request), if it had one. */
export async function endOpsSession(ctx: OpsContext, idHash: string): Promise<string | null> {
  const [row] = await ctx.db
    .delete(opsSessions)
    .where(eq(opsSessions.idHash, idHash))
    .returning({ idToken: opsSessions.idTokenEncrypted });
  try {
    return row ? decrypt(ctx, row.idToken) : null;
  } catch {
    return null;
  }
}

/**
 * The operator of a session cookie: 401 `Ops_Sign_In_Required` without one (or an unknown one), 401
 * `Ops_Session_Expired` past the idle or absolute limit or when the directory's re-check fails (the session is then
 * deleted). `touch`: the request is activity (restarts the idle timer; reading the session is not).
 */
export async function operatorOfSession(
  ctx: OpsContext,
  sessionId: string | undefined,
  options: { touch: boolean },
): Promise<Operator> {
  if (!sessionId) throw new PortalError(401, 'Ops_Sign_In_Required');
  const idHash = hashSessionId(sessionId);
  const now = ctx.now();
  const [row] = await ctx.db
    .select({ session: opsSessions, operator: operators })
    .from(opsSessions)
    .innerJoin(operators, eq(operators.id, opsSessions.operatorId))
    .where(eq(opsSessions.idHash, idHash));
  if (!row) throw new PortalError(401, 'Ops_Sign_In_Required');
  const { session, operator } = row;
  const expired =
    now.getTime() - session.lastSeenAt.getTime() > ctx.config.ops.idleMs ||
    now.getTime() >= session.expiresAt.getTime();
  let roles = operator.roles as OperatorRole[];
  let name = operator.name;
  let email = operator.email;
  if (!expired && now.getTime() - session.checkedAt.getTime() >= ctx.config.ops.roleRecheckMs) {
    const rechecked = await recheck(ctx, operator.subject, session);
    if (rechecked) ({ roles, name, email } = rechecked);
    else roles = [];
  }
  if (expired || !roles.length) {
    await ctx.db.delete(opsSessions).where(eq(opsSessions.idHash, idHash));
    throw new PortalError(401, 'Ops_Session_Expired');
  }
  if (options.touch) await ctx.db.update(opsSessions).set({ lastSeenAt: now }).where(eq(opsSessions.idHash, idHash));
  return {
    operatorId: operator.id,
    subject: operator.subject,
    name,
    email,
    roles,
    sessionIdHash: idHash,
    lastSeenAt: options.touch ? now : session.lastSeenAt,
    expiresAt: session.expiresAt,
  };
}

/** Asks the directory again; keeps what it says (roles, name, email, new tokens), or null when it refuses. */
async function recheck(
  ctx: OpsContext,
  subject: string,
  session: typeof opsSessions.$inferSelect,
): Promise<DirectoryIdentity | null> {
  const settings = ctx.config.ops.oidc;
  if (!settings || !session.accessTokenEncrypted) return null;
  let answer: Awaited<ReturnType<typeof recheckIdentity>>;
  try {
    answer = await recheckIdentity(settings, subject, {
      accessToken: decrypt(ctx, session.accessTokenEncrypted)!,
      refreshToken: decrypt(ctx, session.refreshTokenEncrypted),
      idToken: decrypt(ctx, session.idTokenEncrypted),
    });
  } catch (err) {
    ctx.log.warn({ err }, 'the directory could not be asked again about an operator: the console session ends');
    return null;
  }
  if (!answer || !answer.identity.roles.length) return null;
  const { identity, tokens } = answer;
  await ctx.db
    .update(opsSessions)
    .set({
      checkedAt: ctx.now(),
      accessTokenEncrypted: encrypt(ctx, tokens.accessToken),
      refreshTokenEncrypted: encrypt(ctx, tokens.refreshToken),
      idTokenEncrypted: encrypt(ctx, tokens.idToken),
    })
    .where(eq(opsSessions.idHash, session.idHash));
  await ctx.db
    .update(operators)
    .set({ roles: identity.roles, name: identity.name, email: identity.email })
    .where(eq(operators.id, session.operatorId));
  return identity;
}

/** What `GET /api/ops/session` answers. */
export function operatorSessionView(ctx: OpsContext, operator: Operator): OperatorSession {
  const idle = new Date(Math.min(operator.lastSeenAt.getTime() + ctx.config.ops.idleMs, operator.expiresAt.getTime()));
  return {
    operatorId: operator.operatorId,
    subject: operator.subject,
    name: operator.name,
    email: operator.email,
    roles: operator.roles,
    idleExpiresAt: idle.toISOString(),
    absoluteExpiresAt: operator.expiresAt.toISOString(),
  };
}

export const OPS_SESSION_CLEANUP_JOB = 'ops-session-cleanup';

/**
 * Deletes console sessions past their idle or absolute limit, every 10 minutes, in batches, by the app's clock
 * (platform/retention.ts): the lookup above already refuses them, but their rows hold the directory's tokens
 * (encrypted) and would otherwise stay for good.
 */
export function opsSessionCleanupJob(limits: { idleMs: number }, schedule: PurgeSchedule = {}): Job {
  return retentionJob(OPS_SESSION_CLEANUP_JOB, { intervalMs: 10 * 60_000, ...schedule }, (tx, now, batchSize) => {
    const idleSince = new Date(now.getTime() - limits.idleMs).toISOString();
    return deleteBatch(
      tx,
      'ops_sessions',
      'id_hash',
      sql`(expires_at <= ${now.toISOString()}::timestamptz or last_seen_at < ${idleSince}::timestamptz)`,
      batchSize,
    );
  });
}
