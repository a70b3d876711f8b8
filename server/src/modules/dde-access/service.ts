import { createHash } from 'node:crypto';
import {
  DDE_REQUEST_LIST_LIMIT,
  type DdeRequestSummary,
  type DdeSubmitRequest,
  type EasiLocation,
  type GetEasiRequest,
} from '@portal/contracts/dde-access';
import { and, asc, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod/mini';
import { linkInForce } from '../../db/links';
import { locationInForce, locationSummaryColumns } from '../../db/locations';
import { ddeRequests, ediEnrollments, providerLocations, userLocations } from '../../db/schema';
import { userById } from '../../db/users';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';

/**
 * DDE access (docs/requirements/portal.md#dde-access-request): the enrollment facts that pre-fill the form, the
 * request itself (idempotent on the form's key) and the user's own requests for the portal home. Every flow takes
 * the service context and the logged-in user's id; the route checks the session.
 */

/**
 * The locations the user is linked to at `now` (a link in force, db/links.ts; optionally one of them), with their
 * enrollment facts when on file.
 */
function linkedLocations(db: DbExecutor, userId: string, now: Date, locationId?: string) {
  return db
    .select({
      ...locationSummaryColumns,
      submitterId: ediEnrollments.submitterId,
      networkServiceVendor: ediEnrollments.networkServiceVendor,
      ddeAccessType: ediEnrollments.ddeAccessType,
      status: ediEnrollments.status,
    })
    .from(userLocations)
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .leftJoin(
      ediEnrollments,
      and(
        eq(ediEnrollments.locationId, providerLocations.id),
        or(isNull(ediEnrollments.endDate), gt(ediEnrollments.endDate, now.toISOString().slice(0, 10))),
      ),
    )
    .where(
      and(
        eq(userLocations.userId, userId),
        linkInForce(now),
        // An end-dated location takes no DDE request (docs/requirements/data-feeds.md#end-dated-locations).
        locationInForce(now),
        ...(locationId ? [eq(userLocations.locationId, locationId)] : []),
      ),
    )
    .orderBy(asc(providerLocations.legalName), asc(providerLocations.npi));
}

/** A digest of what was asked, key order aside: the same form sent twice gives the same digest. */
function requestDigest(body: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(body).sort(([a], [b]) => a.localeCompare(b))));
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The user's linked locations with their enrollment facts (or the one asked for: 403 `Dde_Location_Not_Linked`,
 * audited, when the user is not linked to it). Reading is not a change: a successful read is not audited.
 */
export async function easiLocations(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'client'>,
  userId: string,
  input: z.output<typeof GetEasiRequest>,
): Promise<EasiLocation[]> {
  const { db } = ctx;
  const rows = await linkedLocations(db, userId, ctx.now(), input.locationId);
  if (input.locationId && !rows.length) {
    await audit(ctx, db, {
      actor: userId,
      action: 'dde.easi',
      target: input.locationId,
      outcome: 'failure',
      details: { reason: 'not_linked' },
    });
    throw new PortalError(403, 'Dde_Location_Not_Linked');
  }
  return rows.map(({ submitterId, networkServiceVendor, ddeAccessType, status, ...location }) => ({
    ...location,
    enrollment:
      submitterId && networkServiceVendor && ddeAccessType && status
        ? { submitterId, networkServiceVendor, ddeAccessType, status }
        : null,
  }));
}

/**
 * Stores a DDE access request for a location the user is linked to and emails them its reference number. A retry
 * with the same idempotency key answers the first request (nothing new stored or emailed); the same key with other
 * details is 409 `Dde_Idempotency_Conflict`.
 */
export async function submitDdeRequest(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'jobs' | 'client'>,
  userId: string,
  input: z.output<typeof DdeSubmitRequest>,
): Promise<{ referenceNumber: string; submittedAt: string }> {
  const { db } = ctx;
  const { idempotencyKey, locationId, requestType, ...form } = input;
  const event = { actor: userId, action: 'dde.submit' } as const;
  const [location] = await linkedLocations(db, userId, ctx.now(), locationId);
  if (!location) {
    await audit(ctx, db, { ...event, target: locationId, outcome: 'failure', details: { reason: 'not_linked' } });
    throw new PortalError(403, 'Dde_Location_Not_Linked');
  }
  const digest = requestDigest({ locationId, requestType, ...form });
  const year = ctx.now().getUTCFullYear();
  const result = await db.transaction(async (tx) => {
    // A retry with the same key waits here for the first one's transaction, then finds its row.
    const [inserted] = await tx
      .insert(ddeRequests)
      .values({
        referenceNumber: sql`${`DDE-${year}-`} || lpad(nextval('dde_request_number_seq')::text, 6, '0')`,
        requesterId: userId,
        locationId,
        idempotencyKey,
        requestHash: digest,
        requestType,
        body: form,
      })
      .onConflictDoNothing({ target: [ddeRequests.requesterId, ddeRequests.idempotencyKey] })
      .returning({
        id: ddeRequests.id,
        referenceNumber: ddeRequests.referenceNumber,
        createdAt: ddeRequests.createdAt,
      });
    if (!inserted) {
      const [first] = await tx
        .select()
        .from(ddeRequests)
        .where(and(eq(ddeRequests.requesterId, userId), eq(ddeRequests.idempotencyKey, idempotencyKey)));
      if (!first || first.requestHash !== digest) {
        await audit(ctx, tx, {
          ...event,
          target: first?.id,
          outcome: 'failure',
          details: { reason: 'key_reused', locationId },
        });
        return { conflict: true as const };
      }
      await audit(ctx, tx, {
        ...event,
        target: first.id,
        outcome: 'success',
        details: { reason: 'replay', locationId },
      });
      return { conflict: false as const, row: first, sent: false };
    }
    const user = await userById(tx, userId);
    await enqueueEmail(tx, {
      to: user!.email,
      template: 'dde-request-received',
      data: {
        firstName: user!.firstName,
        referenceNumber: inserted.referenceNumber,
        legalName: location.legalName,
      },
    });
    await audit(ctx, tx, { ...event, target: inserted.id, outcome: 'success', details: { locationId } });
    return { conflict: false as const, row: inserted, sent: true };
  });
  if (result.conflict) throw new PortalError(409, 'Dde_Idempotency_Conflict');
  if (result.sent) ctx.jobs.kick(OUTBOX_JOB);
  return { referenceNumber: result.row.referenceNumber, submittedAt: result.row.createdAt.toISOString() };
}

/**
 * The user's own DDE access requests, newest first (docs/requirements/portal.md#portal-home): what the portal home
 * shows as their status. Only the requester's rows, whatever locations they share with others.
 */
export async function listOwnDdeRequests(
  ctx: Pick<ServiceContext, 'db'>,
  userId: string,
): Promise<DdeRequestSummary[]> {
  const rows = await ctx.db
    .select({
      referenceNumber: ddeRequests.referenceNumber,
      createdAt: ddeRequests.createdAt,
      requestType: ddeRequests.requestType,
      legalName: providerLocations.legalName,
      status: ddeRequests.status,
    })
    .from(ddeRequests)
    .innerJoin(providerLocations, eq(providerLocations.id, ddeRequests.locationId))
    .where(eq(ddeRequests.requesterId, userId))
    .orderBy(desc(ddeRequests.createdAt), desc(ddeRequests.referenceNumber))
    .limit(DDE_REQUEST_LIST_LIMIT);
  return rows.map(({ createdAt, ...row }) => ({ ...row, submittedAt: createdAt.toISOString() }));
}
