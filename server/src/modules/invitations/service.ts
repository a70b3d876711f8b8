import {
  INVITATION_TTL_MS,
  type CreateInvitationRequest,
  type InvitableLocation,
  type InvitationSummary,
  type OpenInvitation,
} from '@portal/contracts/invitations';
import type { LocationRole } from '@portal/contracts/admin';
import { and, asc, desc, eq, gt, gte, inArray, isNull, ne, sql } from 'drizzle-orm';
import { accessRequests, invitations, providerLocations, userLocations, users } from '../../db/schema';
import { emailIs, userById, type User } from '../../db/users';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { hashOneTimeToken, newOneTimeToken } from '../../identity/one-time-tokens';
import { administeredLocations, administersLocation } from '../../identity/admin-guard';
import { PortalError } from '../../platform/portal-error';
import { countAttempt, retryAfterHeader } from '../../platform/rate-limit';
import { lockAdministrators } from '../admin/service';
import { audit, type ServiceContext } from '../../identity/service-context';
import { DAY_MS } from '@portal/contracts/time';

/**
 * Invitations (docs/requirements/staff-accounts.md#invitations, docs/decisions/0042): an administrator invites an
 * email address to one of their locations with a role; the invitee opens the emailed link (its token in the URL
 * fragment, only its SHA-256 stored), and either registers (the registration calls `redeemInvitation` with the new
 * account) or, logged in, accepts it. The invitation must be used by an account with the invited address; the
 * inviter is then emailed.
 */

type Ctx = Pick<ServiceContext, 'db' | 'now' | 'client' | 'config' | 'jobs'>;

/** The most open invitations a list answers (a location never has this many waiting). */
const LIST_LIMIT = 200;

/** What names an invitation: who is invited, to which location, as what. */
const invitationColumns = {
  id: invitations.id,
  locationId: invitations.locationId,
  locationName: providerLocations.legalName,
  email: invitations.email,
  role: invitations.role,
};

function openInvitationsQuery(db: DbExecutor, now: Date) {
  return db
    .select({
      ...invitationColumns,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
      inviterFirst: users.firstName,
      inviterLast: users.lastName,
    })
    .from(invitations)
    .innerJoin(providerLocations, eq(providerLocations.id, invitations.locationId))
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(and(isNull(invitations.usedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .$dynamic();
}

type OpenRow = Awaited<ReturnType<ReturnType<typeof openInvitationsQuery>['execute']>>[number];

function toOpenInvitation(row: OpenRow): OpenInvitation {
  return {
    id: row.id,
    locationId: row.locationId,
    locationName: row.locationName,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    invitedBy: `${row.inviterFirst ?? ''} ${row.inviterLast ?? ''}`.trim(),
  };
}

/** Whether an account with this email address already holds a link to the location. */
async function emailIsMember(db: DbExecutor, email: string, locationId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: userLocations.userId })
    .from(userLocations)
    .innerJoin(users, eq(users.id, userLocations.userId))
    .where(and(eq(userLocations.locationId, locationId), emailIs(email)))
    .limit(1);
  return Boolean(row);
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The hourly invitation limits beyond the route's per client address
 * (docs/requirements/staff-accounts.md#invitations): per administrator, whatever address or session they send from,
 * and per location, whoever sends; each `INVITATIONS_PER_HOUR`. Over one: 429 `Too_Many_Requests` with
 * `Retry-After`, audited with the reason. Counted in the shared PostgreSQL store (platform/rate-limit.ts), so every
 * instance sees the same counts.
 */
async function countInvitation(ctx: Ctx, actorId: string, locationId: string): Promise<void> {
  const max = ctx.config.invitations.perHour;
  for (const [key, reason] of [
    [`invitation-administrator|${actorId}`, 'administrator_limit'],
    [`invitation-location|${locationId}`, 'location_limit'],
  ] as const) {
    const attempt = await countAttempt(ctx.db, key, HOUR_MS);
    if (attempt.count <= max) continue;
    await audit(ctx, ctx.db, {
      actor: actorId,
      action: 'invitation.sent',
      outcome: 'failure',
      details: { locationId, reason },
    });
    throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(attempt.ttlMs));
  }
}

/**
 * Invites `email` to the location with the role (the route's admin guard has checked that the actor administers
 * it): 409 `Invitation_Already_Member` when an account with that address already has access to it. An open invitation of the
 * same address to the same location is replaced (only the newest link works). Emails the link.
 */
export async function createInvitation(
  ctx: Ctx,
  actorId: string,
  input: CreateInvitationRequest,
): Promise<OpenInvitation> {
  await countInvitation(ctx, actorId, input.locationId);
  const now = ctx.now();
  const invitation = await ctx.db.transaction(async (tx) => {
    if (await emailIsMember(tx, input.email, input.locationId)) throw new PortalError(409, 'Invitation_Already_Member');
    await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(invitations.locationId, input.locationId),
          sql`lower(${invitations.email}) = lower(${input.email})`,
          isNull(invitations.usedAt),
          isNull(invitations.revokedAt),
        ),
      );
    const token = newOneTimeToken();
    const [created] = await tx
      .insert(invitations)
      .values({
        tokenHash: hashOneTimeToken(token),
        locationId: input.locationId,
        invitedBy: actorId,
        email: input.email,
        role: input.role,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        createdAt: now,
      })
      .returning({ id: invitations.id });
    const [row] = await openInvitationsQuery(tx, now).where(eq(invitations.id, created!.id));
    const open = toOpenInvitation(row!);
    await enqueueEmail(tx, {
      to: input.email,
      template: 'invitation',
      data: {
        inviteeName: input.name ?? '',
        inviterName: open.invitedBy,
        locationName: open.locationName,
        role: input.role,
        token,
      },
    });
    await audit(ctx, tx, {
      actor: actorId,
      action: 'invitation.sent',
      target: open.id,
      outcome: 'success',
      details: { locationId: input.locationId },
    });
    return open;
  });
  ctx.jobs.kick(OUTBOX_JOB);
  return invitation;
}

/**
 * The open invitations of the actor's locations, or of `locationId` (which the admin guard has checked the actor
 * administers), newest first; and those locations by name, for the invite dialog.
 */
export async function listInvitations(
  ctx: Ctx,
  actorId: string,
  locationId: string | null,
): Promise<{ invitations: OpenInvitation[]; locations: InvitableLocation[] }> {
  // The guard's location, else a subquery of the caller's locations: the SQL is scoped by construction (decision 0039).
  const now = ctx.now();
  const scope = locationId ? [locationId] : administeredLocations(ctx.db, actorId, now);
  const rows = await openInvitationsQuery(ctx.db, now)
    .where(
      and(
        inArray(invitations.locationId, scope),
        isNull(invitations.usedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .orderBy(desc(invitations.createdAt))
    .limit(LIST_LIMIT);
  const locations = await ctx.db
    .select({ locationId: providerLocations.id, legalName: providerLocations.legalName, npi: providerLocations.npi })
    .from(providerLocations)
    .where(inArray(providerLocations.id, scope))
    .orderBy(asc(providerLocations.legalName), asc(providerLocations.npi));
  return { invitations: rows.map(toOpenInvitation), locations };
}

/**
 * Withdraws an open invitation of the location (which the admin guard has checked the actor administers): its link
 * stops working. 404 `Invitation_Not_Found` when the location has no such open invitation (another location's is not
 * told apart).
 */
export async function revokeInvitation(
  ctx: Ctx,
  actorId: string,
  target: { locationId: string; invitationId: string },
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(invitations.id, target.invitationId),
          eq(invitations.locationId, target.locationId),
          isNull(invitations.usedAt),
          isNull(invitations.revokedAt),
        ),
      )
      .returning({ id: invitations.id });
    if (!row) throw new PortalError(404, 'Invitation_Not_Found');
    await audit(ctx, tx, {
      actor: actorId,
      action: 'invitation.revoked',
      target: target.invitationId,
      outcome: 'success',
      details: { locationId: target.locationId },
    });
  });
}

// ——— The invitee's side ———

/**
 * Whether a revoked invitation was replaced by a newer one to the same address and location (a re-send revokes the
 * open one in the same transaction, at the same instant): its link then says that a newer link was sent, not that
 * the administrator withdrew it.
 */
async function replacedBy(
  db: DbExecutor,
  row: { id: string; locationId: string; email: string; revokedAt: Date | null },
): Promise<boolean> {
  if (!row.revokedAt) return false;
  const newer = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.locationId, row.locationId),
        sql`lower(${invitations.email}) = lower(${row.email})`,
        gte(invitations.createdAt, row.revokedAt),
        ne(invitations.id, row.id),
      ),
    )
    .limit(1);
  return newer.length > 0;
}

/**
 * The invitation a token names, whatever its state, locked for update when `forUpdate`; 400 with a code when it
 * cannot be used: `Invitation_Invalid` (unknown), `Invitation_Used`, `Invitation_Inviter_Gone` (its sender no longer
 * administers the location), `Invitation_Revoked`, `Invitation_Replaced` (a newer one was sent), `Invitation_Expired`. Only
 * the holder of the link learns which.
 */
async function usableInvitation(db: DbExecutor, token: string, now: Date, forUpdate = false) {
  const query = db
    .select({
      ...invitationColumns,
      invitedBy: invitations.invitedBy,
      expiresAt: invitations.expiresAt,
      usedAt: invitations.usedAt,
      revokedAt: invitations.revokedAt,
    })
    .from(invitations)
    .innerJoin(providerLocations, eq(providerLocations.id, invitations.locationId))
    .where(eq(invitations.tokenHash, hashOneTimeToken(token)));
  const [row] = forUpdate ? await query.for('update', { of: invitations }) : await query;
  if (!row) throw new PortalError(400, 'Invitation_Invalid');
  if (row.usedAt) throw new PortalError(400, 'Invitation_Used');
  // The inviter's authority ends with their role: an invitation whose inviter no longer administers the location (or
  // whose account is disabled) is refused, whether or not it was ended when they lost the role.
  if (!(await inviterAdministers(db, row, now))) throw new PortalError(400, 'Invitation_Inviter_Gone');
  if (row.revokedAt)
    throw new PortalError(400, (await replacedBy(db, row)) ? 'Invitation_Replaced' : 'Invitation_Revoked');
  if (row.expiresAt.getTime() <= now.getTime()) throw new PortalError(400, 'Invitation_Expired');
  return row;
}

/** Whether the invitation's sender still administers its location at `now`, with an enabled account. */
async function inviterAdministers(
  db: DbExecutor,
  invitation: { invitedBy: string | null; locationId: string },
  now: Date,
): Promise<boolean> {
  if (!invitation.invitedBy) return false;
  const [inviter] = await db.select({ status: users.status }).from(users).where(eq(users.id, invitation.invitedBy));
  if (!inviter || (inviter.status !== 'active' && inviter.status !== 'locked')) return false;
  return administersLocation(db, invitation.invitedBy, invitation.locationId, now);
}

/**
 * What the invitation page shows: the location's name, the role, the expiry and the invited address (the link's holder
 * got it there; the registration fills it in); nothing of the inviter.
 */
export async function lookupInvitation(
  ctx: Pick<ServiceContext, 'db' | 'now'>,
  token: string,
): Promise<InvitationSummary> {
  const row = await usableInvitation(ctx.db, token, ctx.now());
  return {
    locationName: row.locationName,
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** 403 `Invitation_Email_Mismatch` unless `email` is the invited address (whatever its case). */
function checkInvitedAddress(invitation: { email: string }, email: string): void {
  if (invitation.email.toLowerCase() !== email.toLowerCase()) throw new PortalError(403, 'Invitation_Email_Mismatch');
}

/**
 * Checks, without using it, that the invitation can be used by the address: the same refusals as `redeemInvitation`.
 * The registration calls it when the address already has an account (that account accepts it after logging in), so
 * the answer does not depend on whether the address has one.
 */
export async function checkInvitation(
  ctx: Pick<ServiceContext, 'now'>,
  tx: DbExecutor,
  token: string,
  email: string,
): Promise<void> {
  checkInvitedAddress(await usableInvitation(tx, token, ctx.now()), email);
}

export interface RedeemedInvitation {
  locationId: string;
  locationName: string;
  role: LocationRole;
}

/**
 * Uses the invitation for `user` in the caller's transaction: the user is linked to the location at once with the
 * invited role, certified for RECERTIFICATION_DAYS by the inviter; a pending access request of the user for the
 * location is approved with it. The account's address must be the invited one (403 `Invitation_Email_Mismatch`); a
 * user who already has the location gets 409 `Invitation_Already_Member`, an administrator invitation to a location
 * that has ADMINS_PER_LOCATION_MAX administrators 409 `Admin_Limit_Reached`; the invitation then stays unused. Of two
 * concurrent uses exactly one succeeds (the row is locked). The end-user registration calls this with the new
 * account; `acceptInvitation` with the logged-in one. A success is audited as `invitation.accepted` by the user; a
 * refusal rolls the caller's transaction back, so the route's declared audit records it with its code.
 */
export async function redeemInvitation(
  ctx: Pick<ServiceContext, 'now' | 'client' | 'config'>,
  tx: DbExecutor,
  token: string,
  user: Pick<User, 'id' | 'email'>,
): Promise<RedeemedInvitation> {
  const now = ctx.now();
  const invitation = await usableInvitation(tx, token, now, true);
  checkInvitedAddress(invitation, user.email);
  // Under the location's lock (the lock every change to its people takes): the inviter still administers it (a
  // removal, a revocation or a disabling committed meanwhile ends their invitations), and the
  // administrators-per-location limit holds for an invitation too.
  const administrators = await lockAdministrators(tx, invitation.locationId, now);
  if (!administrators.some((a) => a.userId === invitation.invitedBy && a.working))
    throw new PortalError(400, 'Invitation_Inviter_Gone');
  if (invitation.role === 'administrator' && administrators.length >= ctx.config.staff.adminsPerLocationMax)
    throw new PortalError(409, 'Admin_Limit_Reached');
  const linked = await tx
    .insert(userLocations)
    .values({
      userId: user.id,
      locationId: invitation.locationId,
      role: invitation.role,
      createdAt: now,
      certifiedUntil: new Date(now.getTime() + ctx.config.staff.recertificationDays * DAY_MS),
      certifiedBy: invitation.invitedBy,
    })
    .onConflictDoNothing()
    .returning({ userId: userLocations.userId });
  if (!linked.length) throw new PortalError(409, 'Invitation_Already_Member');
  await tx.update(invitations).set({ usedAt: now, usedBy: user.id }).where(eq(invitations.id, invitation.id));
  await tx
    .update(accessRequests)
    .set({
      status: 'approved',
      role: invitation.role,
      decidedBy: invitation.invitedBy,
      decidedAt: now,
      updatedAt: now,
    })
    .where(
      and(
        eq(accessRequests.userId, user.id),
        eq(accessRequests.locationId, invitation.locationId),
        eq(accessRequests.status, 'pending'),
      ),
    );
  await tellInviter(tx, invitation, user.id);
  await audit(ctx, tx, {
    actor: user.id,
    action: 'invitation.accepted',
    target: invitation.id,
    outcome: 'success',
    details: { locationId: invitation.locationId },
  });
  return { locationId: invitation.locationId, locationName: invitation.locationName, role: invitation.role };
}

/** Emails the inviter that `userId` used their invitation (in the caller's transaction: sent only if it commits). */
async function tellInviter(
  tx: DbExecutor,
  invitation: { invitedBy: string | null; locationName: string; role: LocationRole },
  userId: string,
): Promise<void> {
  if (!invitation.invitedBy) return;
  const inviter = await userById(tx, invitation.invitedBy);
  const person = await userById(tx, userId);
  if (!inviter || !person) return;
  await enqueueEmail(tx, {
    to: inviter.email,
    template: 'invitation-accepted',
    data: {
      firstName: inviter.firstName,
      personName: `${person.firstName} ${person.lastName}`.trim(),
      locationName: invitation.locationName,
      role: invitation.role,
    },
  });
}

/** A logged-in user accepts an invitation (see `redeemInvitation`). */
export async function acceptInvitation(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'client' | 'config' | 'jobs'>,
  userId: string,
  token: string,
): Promise<RedeemedInvitation> {
  const user = await userById(ctx.db, userId);
  if (!user) throw new PortalError(401, 'Not_Logged_In');
  const redeemed = await ctx.db.transaction((tx) => redeemInvitation(ctx, tx, token, user));
  ctx.jobs.kick(OUTBOX_JOB); // the inviter's notice
  return redeemed;
}
