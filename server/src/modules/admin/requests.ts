import {
  ADMIN_PAGE_SIZE,
  type AdminAccessRequest,
  type ApproveAccessRequest,
  type DenyAccessRequest,
} from '@portal/contracts/admin';
import type { ErrorCode } from '@portal/contracts/errors';
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import { accessRequests, providerLocations, userLocations, users } from '../../db/schema';
import { userById } from '../../db/users';
import type { AdminGrant } from '../../identity/admin-guard';
import type { AuditDetails } from '../../platform/audit';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { adminLocations, checkAdministratorChange } from './scope';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The pending access requests of the administrator's locations (one of them when the guard established
 * `grant.locationId`), oldest first, a page at a time; `total` counts those locations' pending requests only.
 * Requests of accounts whose email is not yet verified (status `pending`) are not shown: the person has not finished
 * registering.
 */
export async function listPendingRequests(
  ctx: Pick<ServiceContext, 'db' | 'now'>,
  grant: AdminGrant,
  page: number,
): Promise<{ items: AdminAccessRequest[]; page: number; pageSize: number; total: number; hasMore: boolean }> {
  const where = and(
    eq(accessRequests.status, 'pending'),
    inArray(accessRequests.locationId, adminLocations(ctx.db, grant, ctx.now())),
    ne(users.status, 'pending'),
  );
  const [rows, [totals]] = await Promise.all([
    ctx.db
      .select({
        requestId: accessRequests.id,
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        email: users.email,
        locationId: providerLocations.id,
        legalName: providerLocations.legalName,
        npi: providerLocations.npi,
        ptan: providerLocations.ptan,
        createdAt: accessRequests.createdAt,
      })
      .from(accessRequests)
      .innerJoin(users, eq(users.id, accessRequests.userId))
      .innerJoin(providerLocations, eq(providerLocations.id, accessRequests.locationId))
      .where(where)
      .orderBy(asc(accessRequests.createdAt), asc(accessRequests.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset((page - 1) * ADMIN_PAGE_SIZE),
    ctx.db
      .select({ n: count() })
      .from(accessRequests)
      .innerJoin(users, eq(users.id, accessRequests.userId))
      .where(where),
  ]);
  const total = totals?.n ?? 0;
  return {
    items: rows.map(({ firstName, lastName, createdAt, ...row }) => ({
      ...row,
      name: `${firstName} ${lastName}`.trim(),
      requestedAt: createdAt.toISOString(),
    })),
    page,
    pageSize: ADMIN_PAGE_SIZE,
    total,
    hasMore: page * ADMIN_PAGE_SIZE < total,
  };
}

type Decision = { decision: 'approve'; input: ApproveAccessRequest } | { decision: 'deny'; input: DenyAccessRequest };

/** A decision refused inside the transaction: audited after it rolled back, then answered with its status and code. */
function refusal<E>(status: 400 | 409, code: ErrorCode, event: E, details: AuditDetails) {
  return { refused: { status, code, details }, event };
}

/**
 * Approves (the requester gets a `user_locations` link with the chosen role, certified for RECERTIFICATION_DAYS by the
 * approver) or denies (with the optional reason) a pending request of a location the guard checked, and emails the
 * requester. The request's row is locked first, so of two decisions on one request exactly one is made; the other,
 * and any decision on a request decided or withdrawn meanwhile, is 409 `Access_Request_Not_Pending`. A request of an
 * account whose email is not verified yet (not listed: the person has not finished registering) is 400
 * `Access_Request_Unverified`, whatever the decision: an id sent directly decides nothing. Approving as administrator
 * beyond ADMINS_PER_LOCATION_MAX is 409 `Admin_Limit_Reached` (counted under the location's lock).
 */
export async function decideRequest(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config' | 'jobs' | 'client'>,
  grant: AdminGrant,
  requestId: string,
  decision: Decision,
): Promise<{ requestId: string; status: 'approved' | 'denied' }> {
  const action = decision.decision === 'approve' ? 'admin.request.approve' : 'admin.request.deny';
  const status = decision.decision === 'approve' ? ('approved' as const) : ('denied' as const);
  const outcome = await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    // The location's lock first, then the request's row (every path takes the location's lock before its rows: an
    // invitation used at the same moment approves the same request). The guard let the actor in; under the lock, a
    // concurrent change may since have taken their role away.
    const { administrators } = await checkAdministratorChange(tx, {
      actorId: grant.actorId,
      locationIds: [grant.locationId!],
      now,
    });
    const [request] = await tx.select().from(accessRequests).where(eq(accessRequests.id, requestId)).for('update');
    if (!request || request.locationId !== grant.locationId) throw new PortalError(404, 'Not_Found');
    const event = { actor: grant.actorId, action, target: request.userId } as const;
    if (request.status !== 'pending')
      return refusal(409, 'Access_Request_Not_Pending', event, { reason: `status_${request.status}` });
    const requester = await userById(tx, request.userId);
    if (requester?.status === 'pending')
      return refusal(400, 'Access_Request_Unverified', event, { reason: 'email_unverified' });
    const role = decision.decision === 'approve' ? decision.input.role : null;
    if (role === 'administrator' && administrators.length >= ctx.config.staff.adminsPerLocationMax)
      return refusal(409, 'Admin_Limit_Reached', event, { reason: 'admin_limit', locationId: request.locationId });
    if (role)
      await tx
        .insert(userLocations)
        .values({
          userId: request.userId,
          locationId: request.locationId,
          role,
          certifiedUntil: new Date(now.getTime() + ctx.config.staff.recertificationDays * DAY_MS),
          certifiedBy: grant.actorId,
        })
        // Already linked meanwhile (an invitation): the link and its role stay as they are.
        .onConflictDoNothing();
    const reason = decision.decision === 'deny' ? decision.input.reason || null : null;
    await tx
      .update(accessRequests)
      .set({ status, role, reason, decidedBy: grant.actorId, decidedAt: now, updatedAt: now })
      .where(eq(accessRequests.id, requestId));
    const [location] = await tx
      .select({ legalName: providerLocations.legalName })
      .from(providerLocations)
      .where(eq(providerLocations.id, request.locationId));
    if (requester && location)
      await enqueueEmail(tx, {
        to: requester.email,
        template: 'access-request-decided',
        data: {
          firstName: requester.firstName,
          legalName: location.legalName,
          decision: status,
          ...(role ? { role } : {}),
          ...(reason ? { reason } : {}),
        },
      });
    await audit(ctx, tx, {
      ...event,
      outcome: 'success',
      details: { locationId: request.locationId, ...(role ? { field: 'role' as const, reason: role } : {}) },
    });
    return { refused: null, event };
  });
  if (outcome.refused) {
    await audit(ctx, ctx.db, { ...outcome.event, outcome: 'failure', details: outcome.refused.details });
    throw new PortalError(outcome.refused.status, outcome.refused.code);
  }
  ctx.jobs.kick(OUTBOX_JOB);
  return { requestId, status };
}
