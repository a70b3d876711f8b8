import type { AccessRequestSummary, CreateAccessRequest } from '@portal/contracts/access-requests';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod/mini';
import { accessRequests, providerLocations, userLocations } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import { findLocationsLimited } from '../../identity/locations/lookup';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';

/**
 * A logged-in person's requests for access to provider locations (docs/requirements/staff-accounts.md#end-users):
 * their own list, a request for a further location, withdrawing a pending one. Every flow takes the service context
 * and the logged-in user's id; the route checks the session. Deciding a request is the administrators' (`/api/admin`).
 */

type CreateInput = z.output<typeof CreateAccessRequest>;

/** The most requests the portal home lists (newest first); a person has a handful. */
export const ACCESS_REQUEST_LIST_LIMIT = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function summaries(db: DbExecutor, userId: string, requestId?: string) {
  return db
    .select({
      id: accessRequests.id,
      status: accessRequests.status,
      legalName: providerLocations.legalName,
      npi: providerLocations.npi,
      jurisdiction: providerLocations.jurisdiction,
      lineOfBusiness: providerLocations.lineOfBusiness,
      createdAt: accessRequests.createdAt,
      decidedAt: accessRequests.decidedAt,
      reason: accessRequests.reason,
    })
    .from(accessRequests)
    .innerJoin(providerLocations, eq(providerLocations.id, accessRequests.locationId))
    .where(and(eq(accessRequests.userId, userId), ...(requestId ? [eq(accessRequests.id, requestId)] : [])))
    .orderBy(desc(accessRequests.createdAt), desc(accessRequests.id))
    .limit(ACCESS_REQUEST_LIST_LIMIT);
}

type Row = Awaited<ReturnType<typeof summaries>>[number];

function summary(row: Row): AccessRequestSummary {
  return {
    id: row.id,
    status: row.status,
    location: {
      legalName: row.legalName,
      npi: row.npi,
      jurisdiction: row.jurisdiction,
      lineOfBusiness: row.lineOfBusiness,
    },
    requestedAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    // Only a denial's reason is the requester's to read.
    reason: row.status === 'denied' ? row.reason : null,
  };
}

/** The user's own requests, newest first. Reading is not a change: not audited. */
export async function listOwnAccessRequests(
  ctx: Pick<ServiceContext, 'db'>,
  userId: string,
): Promise<AccessRequestSummary[]> {
  return (await summaries(ctx.db, userId)).map(summary);
}

const PENDING_UNIQUE_INDEX = 'access_requests_pending_key';

function isPendingDuplicate(err: unknown): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505' && (e.constraint === PENDING_UNIQUE_INDEX || e.constraint === undefined)) return true;
  }
  return false;
}

/**
 * A request for a further location, named as at registration (the same lookup, the same non-revealing
 * `Provider_Not_Found`, the same per-client limit). 400 `Location_Already_Linked` when the user already has the
 * location, 400 `Access_Request_Pending` when a request of theirs for it is still pending (two at once: the unique
 * index decides, one wins).
 */
export async function createAccessRequest(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config' | 'client'>,
  userId: string,
  input: CreateInput,
): Promise<AccessRequestSummary> {
  const refuse = async (reason: string, error: PortalError, locationId?: string) => {
    await audit(ctx, ctx.db, {
      actor: userId,
      action: 'access-request.create',
      target: locationId ?? userId,
      outcome: 'failure',
      details: { reason, npi: input.npi, ...(locationId ? { locationId } : {}) },
    });
    return error;
  };
  const [location] = await findLocationsLimited(ctx, [input]);
  if (!location) throw await refuse('no_match', new PortalError(400, 'Provider_Not_Found'));

  const [linked] = await ctx.db
    .select({ userId: userLocations.userId })
    .from(userLocations)
    .where(
      and(
        eq(userLocations.userId, userId),
        eq(userLocations.locationId, location.id),
        eq(userLocations.status, 'active'),
      ),
    )
    .limit(1);
  if (linked) throw await refuse('already_linked', new PortalError(400, 'Location_Already_Linked'), location.id);

  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(accessRequests)
        .values({ userId, locationId: location.id, createdAt: ctx.now(), updatedAt: ctx.now() })
        .returning({ id: accessRequests.id });
      await audit(ctx, tx, {
        actor: userId,
        action: 'access-request.create',
        target: location.id,
        outcome: 'success',
        details: { locationId: location.id },
      });
      return row!.id;
    });
  } catch (err) {
    if (isPendingDuplicate(err))
      throw await refuse('pending_duplicate', new PortalError(400, 'Access_Request_Pending'), location.id);
    throw err;
  }
  const [row] = await summaries(ctx.db, userId, id);
  return summary(row!);
}

/**
 * Withdraws a pending request of the user's. Someone else's request, or an id that is none, is 404
 * `Access_Request_Not_Found` (whether it exists is not revealed); a decided or withdrawn one is 400
 * `Access_Request_Not_Pending`.
 */
export async function withdrawAccessRequest(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'client'>,
  userId: string,
  requestId: string,
): Promise<AccessRequestSummary> {
  const refuse = async (reason: string, error: PortalError, locationId?: string) => {
    await audit(ctx, ctx.db, {
      actor: userId,
      action: 'access-request.withdraw',
      target: locationId ?? userId,
      outcome: 'failure',
      details: { reason, ...(locationId ? { locationId } : {}) },
    });
    return error;
  };
  if (!UUID.test(requestId)) throw await refuse('not_found', new PortalError(404, 'Access_Request_Not_Found'));
  const now = ctx.now();
  const outcome = await ctx.db.transaction(async (tx) => {
    // The row lock orders a withdrawal against an administrator's decision on the same request.
    const [request] = await tx
      .select({ status: accessRequests.status, locationId: accessRequests.locationId })
      .from(accessRequests)
      .where(and(eq(accessRequests.id, requestId), eq(accessRequests.userId, userId)))
      .for('update');
    if (!request) return { error: 'not_found' as const };
    if (request.status !== 'pending') return { error: 'not_pending' as const, locationId: request.locationId };
    await tx
      .update(accessRequests)
      .set({ status: 'withdrawn', decidedAt: now, updatedAt: now })
      .where(eq(accessRequests.id, requestId));
    await audit(ctx, tx, {
      actor: userId,
      action: 'access-request.withdraw',
      target: request.locationId,
      outcome: 'success',
      details: { locationId: request.locationId },
    });
    return { locationId: request.locationId };
  });
  if ('error' in outcome) {
    if (outcome.error === 'not_found')
      throw await refuse('not_found', new PortalError(404, 'Access_Request_Not_Found'));
    throw await refuse('not_pending', new PortalError(400, 'Access_Request_Not_Pending'), outcome.locationId);
  }
  const [row] = await summaries(ctx.db, userId, requestId);
  return summary(row!);
}
