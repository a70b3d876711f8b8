import type { ErrorCode } from '@portal/contracts/errors';
import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { linkInForce, linkInForceColumn } from '../../db/links';
import { invitations, userLocations, users } from '../../db/schema';
import { administeredLocations, type AdminGrant } from '../../platform/admin-guard';
import type { DbExecutor } from '../../platform/db-executor';
import { PortalError } from '../../platform/portal-error';

/**
 * The locations a guarded call may read: the one the guard established (`?locationId`), else every location the
 * caller administers at `now` (the app's clock). A subquery, so each list's SQL is scoped by construction
 * (docs/decisions/0039-admin-guard.md).
 */
export function adminLocations(db: DbExecutor, grant: AdminGrant, now: Date) {
  return grant.locationId ? [grant.locationId] : administeredLocations(db, grant.actorId, now);
}

/** An account that counts as a working administrator: not disabled (a locked account unlocks), its email verified. */
export const ENABLED_STATUSES = ['active', 'locked'] as const;

/** An administrator link of a locked location, as the rules read it. */
export interface LockedAdministrator {
  userId: string;
  locationId: string;
  /** The link is in force at `now` (db/links.ts). */
  inForce: boolean;
  /** In force, of an enabled account: what "the location has an administrator" counts. */
  working: boolean;
}

/**
 * Serialises the changes to locations' people (docs/decisions/0039-admin-guard.md,
 * docs/decisions/0046-one-rule-for-administrator-changes.md): takes each location's row lock in id order (two changes
 * over several locations never wait on each other crosswise), then reads their administrator links `FOR UPDATE`, each
 * with whether it is in force at `now` (the app's clock, db/links.ts) and whether it works (in force, of an enabled
 * account). The location row is what makes the rules hold: `FOR UPDATE` on the links alone would not stop a
 * concurrent transaction from adding a sixth administrator (a row it does not lock), and under READ COMMITTED the read
 * after the lock sees every change committed before it.
 */
export async function lockAdministrators(
  tx: DbExecutor,
  locationIds: string | readonly string[],
  now: Date,
): Promise<LockedAdministrator[]> {
  const ids = [...new Set([locationIds].flat())].sort();
  if (!ids.length) return [];
  for (const id of ids) await tx.execute(sql`select id from provider_locations where id = ${id} for update`);
  return tx
    .select({
      userId: userLocations.userId,
      locationId: userLocations.locationId,
      inForce: linkInForceColumn(now),
      working: sql<boolean>`(${linkInForce(now)} and ${inArray(users.status, [...ENABLED_STATUSES])})`.mapWith(Boolean),
    })
    .from(userLocations)
    .innerJoin(users, eq(users.id, userLocations.userId))
    .where(and(inArray(userLocations.locationId, ids), eq(userLocations.role, 'administrator')))
    .for('update', { of: userLocations });
}

/** Who stops counting as an administrator of a location through a change. */
export interface AdministratorLoss {
  userId: string;
  locationId: string;
}

/**
 * THE rule of every change that removes or weakens an administrator (remove, revoke, disable, reset the second
 * factor, a recertification's remove, leaving), and of every other change to a location's people
 * (docs/requirements/staff-accounts.md#the-administrators-rules). Under the locations' locks (`lockAdministrators`):
 * - the actor must still be a working administrator of each location (a concurrent change may have taken the role or
 *   the account away after the guard let them in): else 404 `Not_Found`, as the guard answers; when `every` (the
 *   account-wide actions) and the actor works at some of the locations but not all, 403 `Admin_Other_Locations`;
 * - after the `losses`, each of these locations keeps at least one working administrator: else the answer is the
 *   refusal `Last_Administrator` (409), and nothing is changed;
 * - when the change is allowed, the open invitations the losing administrators sent to those locations end (their
 *   authority ended with the role: the inviter is checked again when one is used).
 * Answers the locked administrators, or the refusal.
 */
export async function checkAdministratorChange(
  tx: DbExecutor,
  change: {
    actorId: string;
    locationIds: readonly string[];
    now: Date;
    losses?: readonly AdministratorLoss[];
    every?: boolean;
    /**
     * The actor is the contractor's help desk (an operator, `actorId` its audit actor), not an administrator of the
     * locations: the actor check is skipped, the rule on the losses holds all the same.
     */
    operator?: boolean;
  },
): Promise<{ administrators: LockedAdministrator[]; refusal?: ErrorCode }> {
  const { actorId, now, losses = [] } = change;
  const locationIds = [...new Set(change.locationIds)];
  const administrators = await lockAdministrators(tx, locationIds, now);
  const works = (userId: string, locationId: string) =>
    administrators.some((a) => a.userId === userId && a.locationId === locationId && a.working);
  const actorWorksAt = locationIds.filter((locationId) => works(actorId, locationId));
  if (!change.operator && actorWorksAt.length < locationIds.length)
    throw change.every && actorWorksAt.length
      ? new PortalError(403, 'Admin_Other_Locations')
      : new PortalError(404, 'Not_Found');
  const lost = (a: LockedAdministrator) => losses.some((l) => l.userId === a.userId && l.locationId === a.locationId);
  for (const locationId of locationIds)
    if (!administrators.some((a) => a.locationId === locationId && a.working && !lost(a)))
      return { administrators, refusal: 'Last_Administrator' };
  await endInvitationsOf(tx, losses, now);
  return { administrators };
}

/** Ends the open invitations each losing administrator sent to the location they lose. */
async function endInvitationsOf(tx: DbExecutor, losses: readonly AdministratorLoss[], now: Date): Promise<void> {
  for (const { userId, locationId } of losses)
    await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(invitations.invitedBy, userId),
          eq(invitations.locationId, locationId),
          isNull(invitations.usedAt),
          isNull(invitations.revokedAt),
        ),
      );
}

/** The locations a person is linked to (any role, any status): what an account-wide action reaches. */
export async function locationsOfPerson(tx: DbExecutor, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ locationId: userLocations.locationId })
    .from(userLocations)
    .where(eq(userLocations.userId, userId));
  return rows.map((row) => row.locationId);
}

/**
 * Of `userIds`, those linked to a location `actorId` does not administer at `now`: for them the console offers only
 * "remove from my location", never an account-wide action (docs/requirements/staff-accounts.md#the-administrators-rules).
 */
export async function linkedElsewhere(
  db: DbExecutor,
  actorId: string,
  userIds: string[],
  now: Date,
): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .selectDistinct({ userId: userLocations.userId })
    .from(userLocations)
    .where(
      and(
        inArray(userLocations.userId, userIds),
        notInArray(userLocations.locationId, administeredLocations(db, actorId, now)),
      ),
    );
  return new Set(rows.map((row) => row.userId));
}
