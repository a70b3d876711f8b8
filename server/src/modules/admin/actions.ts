import type { LocationRole, PersonDetail } from '@portal/contracts/admin';
import type { ErrorCode } from '@portal/contracts/errors';
import { and, eq, sql } from 'drizzle-orm';
import { mfaRecoveryCodes, passkeys, userLocations, users } from '../../db/schema';
import { wrongPasswordsToday } from '../../db/users';
import type { AdminGrant } from '../../identity/admin-guard';
import type { AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { retryOnConflict } from '../../platform/database-unavailable';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions } from '../../identity/sessions/store';
import { personDetail } from './people';
import { checkAdministratorChange, locationsOfPerson } from './scope';

/**
 * What an administrator does to a person of their locations (docs/requirements/staff-accounts.md#people-of-my-locations).
 * The guard checked the scope (`link` for a location's link, `person` for the account); each action is audited with
 * the person as target (their My account activity lists it) and answers the person as the administrator now sees
 * them. The routes require a recent login.
 */

type ActionContext = Pick<ServiceContext, 'db' | 'now' | 'config' | 'jobs' | 'client'>;

/** A refusal decided inside the transaction: audited after it rolled back, then answered. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly details: AuditDetails,
  ) {}
}

/** Who acted on whom, under which audit action; `extra` goes into the details of both outcomes. */
export interface AuditedAction {
  actor: string;
  action: string;
  target: string;
  extra?: AuditDetails;
}

/**
 * Runs an account change in a transaction and audits its success there; a `Refusal` it returns is audited as a
 * failure after the rollback and answered. Kicks the outbox when the change queued an email. A transaction the database
 * aborted for a conflict with another (a deadlock, a serialization failure) runs again (`retryOnConflict`); past its
 * attempts the answer is 503 `Service_Unavailable`, never 500. The administrator's actions and the help desk's
 * (modules/ops) both run through here.
 */
export async function runAuditedChange(
  ctx: Pick<ServiceContext, 'db' | 'jobs' | 'client'>,
  { actor, action, target, extra = {} }: AuditedAction,
  change: (tx: DbExecutor) => Promise<Refusal | AccountChange>,
): Promise<void> {
  // A deadlock's victim or a serialization failure is run again whole (the locks are then taken in turn).
  const result = await retryOnConflict(() =>
    ctx.db.transaction(async (tx) => {
      const outcome = await change(tx);
      if (outcome instanceof Refusal) return outcome;
      await audit(ctx, tx, { actor, action, target, outcome: 'success', details: { ...outcome.details, ...extra } });
      return outcome;
    }),
  );
  if (result instanceof Refusal) {
    await audit(ctx, ctx.db, { actor, action, target, outcome: 'failure', details: { ...result.details, ...extra } });
    throw new PortalError(result.status, result.code);
  }
  if (result.email) ctx.jobs.kick(OUTBOX_JOB);
}

/** Runs the change as the administrator of `grant`, then answers the person as the administrator sees them. */
async function act(
  ctx: ActionContext,
  grant: AdminGrant,
  target: string,
  action: string,
  change: (tx: DbExecutor) => Promise<Refusal | AccountChange>,
): Promise<PersonDetail | null> {
  await runAuditedChange(ctx, { actor: grant.actorId, action, target }, change);
  return personDetail(ctx, grant, target);
}

/** The person's link to the location, locked (404 when it went meanwhile). */
async function lockedLink(tx: DbExecutor, userId: string, locationId: string) {
  const [link] = await tx
    .select({ role: userLocations.role })
    .from(userLocations)
    .where(and(eq(userLocations.userId, userId), eq(userLocations.locationId, locationId)))
    .for('update');
  if (!link) throw new PortalError(404, 'Not_Found');
  return link;
}

/**
 * Makes the person an administrator of the location (409 `Admin_Limit_Reached` at ADMINS_PER_LOCATION_MAX) or a user
 * again (409 `Last_Administrator` when no other working administrator would remain: an enabled account with a link in
 * force, `checkAdministratorChange`). Giving the role the person already has changes nothing.
 */
export function setPersonRole(
  ctx: ActionContext,
  grant: AdminGrant,
  userId: string,
  role: LocationRole,
): Promise<PersonDetail | null> {
  const locationId = grant.locationId!;
  return act(ctx, grant, userId, 'admin.person.role', async (tx) => {
    // The location's lock first, then the link (every path locks in that order).
    const { administrators, refusal } = await checkAdministratorChange(tx, {
      actorId: grant.actorId,
      locationIds: [locationId],
      now: ctx.now(),
      losses: role === 'user' ? [{ userId, locationId }] : [],
    });
    const link = await lockedLink(tx, userId, locationId);
    const details = { locationId, field: 'role', reason: role } as const;
    if (refusal) return new Refusal(409, refusal, { ...details, reason: 'last_administrator' });
    if (link.role === role) return { details: { ...details, count: 0 } };
    if (role === 'administrator' && administrators.length >= ctx.config.staff.adminsPerLocationMax)
      return new Refusal(409, 'Admin_Limit_Reached', { ...details, reason: 'admin_limit' });
    await tx
      .update(userLocations)
      .set({ role })
      .where(and(eq(userLocations.userId, userId), eq(userLocations.locationId, locationId)));
    return { details };
  });
}

/**
 * Removes the person from the location (the actor may remove themselves: leaving). 409 `Last_Administrator` when they
 * are its last working administrator (`checkAdministratorChange`).
 */
export function removeFromLocation(
  ctx: ActionContext,
  grant: AdminGrant,
  userId: string,
): Promise<PersonDetail | null> {
  const locationId = grant.locationId!;
  return act(ctx, grant, userId, 'admin.person.remove', async (tx) => {
    const { refusal } = await checkAdministratorChange(tx, {
      actorId: grant.actorId,
      locationIds: [locationId],
      now: ctx.now(),
      losses: [{ userId, locationId }],
    });
    await lockedLink(tx, userId, locationId);
    if (refusal) return new Refusal(409, refusal, { locationId, reason: 'last_administrator' });
    await tx
      .delete(userLocations)
      .where(and(eq(userLocations.userId, userId), eq(userLocations.locationId, locationId)));
    return { details: { locationId } };
  });
}

/** The account actions are on someone else: an administrator does not disable or reset themselves here. */
function refuseSelf(grant: AdminGrant, userId: string): void {
  if (grant.actorId === userId) throw new PortalError(400, 'Admin_Self_Action');
}

/**
 * An account-wide action reaches every location of the person: under those locations' locks, the actor must
 * administer each of them (403 `Admin_Other_Locations` when only some: the console then offers only "remove from my
 * location"), and the rule of `checkAdministratorChange` holds when `disables` (the person stops counting as an
 * administrator anywhere). A link made meanwhile (an invitation accepted) is read again after the locks.
 */
export async function lockPersonLocations(
  tx: DbExecutor,
  actor: { actorId: string; operator?: boolean },
  userId: string,
  now: Date,
  disables: boolean,
): Promise<ErrorCode | undefined> {
  let locked: string[] = [];
  for (;;) {
    const locationIds = await locationsOfPerson(tx, userId);
    // Removed from every location meanwhile: no longer a person of the actor's (the help desk serves anyone).
    if (!locationIds.length) {
      if (actor.operator) return undefined;
      throw new PortalError(404, 'Not_Found');
    }
    if (locationIds.every((id) => locked.includes(id))) return undefined;
    locked = [...new Set([...locked, ...locationIds])];
    const { refusal } = await checkAdministratorChange(tx, {
      actorId: actor.actorId,
      operator: actor.operator,
      locationIds: locked,
      now,
      every: true,
      losses: disables ? locked.map((locationId) => ({ userId, locationId })) : [],
    });
    if (refusal) return refusal;
  }
}

/** The person's name and address for the notice, in the transaction. */
export async function recipient(tx: DbExecutor, userId: string) {
  const [user] = await tx
    .select({ email: users.email, firstName: users.firstName, status: users.status })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) throw new PortalError(404, 'Not_Found');
  return user;
}

/** Who acted, for the person's notice. */
export type NoticeBy = 'administrator' | 'help-desk';

/** What an account change did: its audit details, and whether it queued an email (then kick the outbox). */
export interface AccountChange {
  details: AuditDetails;
  email?: boolean;
}

/**
 * The account changes themselves, shared by the administrators' actions below and the help desk's console
 * (modules/ops): each runs in the caller's transaction after the caller's own checks (the locks and the rule), and
 * emails the person.
 */
export async function disableAccount(tx: DbExecutor, userId: string, by: NoticeBy): Promise<AccountChange> {
  const user = await recipient(tx, userId);
  if (user.status === 'disabled_admin') return { details: { field: 'status', count: 0 } };
  await tx.update(users).set({ status: 'disabled_admin' }).where(eq(users.id, userId));
  const sessionCount = await endAllSessions(tx, userId, { reason: 'account_disabled' });
  await enqueueEmail(tx, {
    to: user.email,
    template: 'account-changed-by-admin',
    data: { firstName: user.firstName, change: 'disabled', ...(by === 'help-desk' ? { by } : {}) },
  });
  return { details: { field: 'status', reason: user.status, sessionCount }, email: true };
}

/** Enables a disabled account (an administrator's or the inactivity job's disable); the inactivity limit restarts. */
export async function enableAccount(tx: DbExecutor, userId: string, now: Date, by: NoticeBy): Promise<AccountChange> {
  const user = await recipient(tx, userId);
  if (user.status !== 'disabled_admin' && user.status !== 'disabled_inactive')
    return { details: { field: 'status', count: 0 } };
  await tx.update(users).set({ status: 'active', reenabledAt: now }).where(eq(users.id, userId));
  await enqueueEmail(tx, {
    to: user.email,
    template: 'account-changed-by-admin',
    data: { firstName: user.firstName, change: 'enabled', ...(by === 'help-desk' ? { by } : {}) },
  });
  return { details: { field: 'status', reason: user.status }, email: true };
}

/** Lifts a lockout: the lock and the failure counts are cleared. An account that is not locked is left as it is. */
export async function unlockAccount(tx: DbExecutor, userId: string, now: Date, by: NoticeBy): Promise<AccountChange> {
  const user = await recipient(tx, userId);
  const [row] = await tx
    .update(users)
    .set({
      status: sql`case when ${users.status} = 'locked' then 'active'::user_status else ${users.status} end`,
      lockedUntil: null,
      failedLoginCount: 0,
      failedLoginFirstAt: null,
      mfaFailedCount: 0,
    })
    .where(
      and(
        eq(users.id, userId),
        sql`(${users.status} = 'locked' or ${users.lockedUntil} > ${now.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: users.id });
  if (!row) return { details: { field: 'status', count: 0 } };
  await enqueueEmail(tx, {
    to: user.email,
    template: 'account-changed-by-admin',
    data: { firstName: user.firstName, change: 'unlocked', ...(by === 'help-desk' ? { by } : {}) },
  });
  return { details: { field: 'status' }, email: true };
}

/**
 * Resets the second factor: the authenticator, its recovery codes and every passkey are removed (a passkey left would
 * log in without the new enrolment, docs/decisions/0030-passkeys-and-credential-changes.md), so the next login enrols
 * an authenticator again; every session ends with every outstanding emailed link; the person is emailed.
 */
export async function resetSecondFactor(tx: DbExecutor, userId: string, by: NoticeBy): Promise<AccountChange> {
  const user = await recipient(tx, userId);
  await tx
    .update(users)
    .set({ totpSecretEncrypted: null, totpLastStep: null, mfaEnrolledAt: null })
    .where(eq(users.id, userId));
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  const removed = await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  const sessionCount = await endAllSessions(tx, userId, { reason: 'mfa_reset' });
  await enqueueEmail(tx, {
    to: user.email,
    template: 'account-changed-by-admin',
    data: { firstName: user.firstName, change: 'mfa-reset', ...(by === 'help-desk' ? { by } : {}) },
  });
  return { details: { field: 'mfa', count: removed.length, sessionCount }, email: true };
}

/**
 * Disables the account (`disabled_admin`): every session ends at once with every outstanding emailed link, and the
 * person is emailed. Disabling a disabled account changes nothing.
 */
export function disablePerson(ctx: ActionContext, grant: AdminGrant, userId: string): Promise<PersonDetail | null> {
  refuseSelf(grant, userId);
  return act(ctx, grant, userId, 'admin.person.disable', async (tx) => {
    const refusal = await lockPersonLocations(tx, grant, userId, ctx.now(), true);
    if (refusal) return new Refusal(409, refusal, { field: 'status', reason: 'last_administrator' });
    return disableAccount(tx, userId, 'administrator');
  });
}

/**
 * Enables a disabled account again, whether an administrator or the inactivity job disabled it; the inactivity limit
 * restarts from now (`reenabled_at`). An account that is not disabled is left as it is.
 */
export function enablePerson(ctx: ActionContext, grant: AdminGrant, userId: string): Promise<PersonDetail | null> {
  refuseSelf(grant, userId);
  return act(ctx, grant, userId, 'admin.person.enable', async (tx) => {
    await lockPersonLocations(tx, grant, userId, ctx.now(), false);
    return enableAccount(tx, userId, ctx.now(), 'administrator');
  });
}

/**
 * Lifts a lockout (failed passwords or second factors): the lock and the failure counts are cleared, and the owner is
 * emailed. An account that is not locked is left as it is. Past the daily ceiling of wrong passwords (counted across
 * unlocks) only the help desk may unlock: 409 `Unlock_Needs_Help_Desk` (docs/requirements/session.md#lockout).
 */
export function unlockPerson(ctx: ActionContext, grant: AdminGrant, userId: string): Promise<PersonDetail | null> {
  refuseSelf(grant, userId);
  return act(ctx, grant, userId, 'admin.person.unlock', async (tx) => {
    await lockPersonLocations(tx, grant, userId, ctx.now(), false);
    await recipient(tx, userId);
    if ((await wrongPasswordsToday(tx, userId, ctx.now())) >= ctx.config.login.dailyFailureCeiling)
      return new Refusal(409, 'Unlock_Needs_Help_Desk', { field: 'status', reason: 'daily_ceiling' });
    return unlockAccount(tx, userId, ctx.now(), 'administrator');
  });
}

/** Resets the second factor (`resetSecondFactor`) of a person of the administrator's locations. */
export function resetPersonMfa(ctx: ActionContext, grant: AdminGrant, userId: string): Promise<PersonDetail | null> {
  refuseSelf(grant, userId);
  return act(ctx, grant, userId, 'admin.person.reset-mfa', async (tx) => {
    await lockPersonLocations(tx, grant, userId, ctx.now(), false);
    return resetSecondFactor(tx, userId, 'administrator');
  });
}
