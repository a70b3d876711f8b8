import { createHash } from 'node:crypto';
import {
  DDE_REQUESTS_PATH,
  DDE_SUBMIT_PATH,
  DdeRequestListResponse,
  DdeSubmitRequest,
  DdeSubmitResponse,
  GET_EASI_PATH,
  GetEasiRequest,
  GetEasiResponse,
} from '@portal/contracts/login-help';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ddeRequests, ediEnrollments, providerLocations, userLocations, users } from '../../db/schema';
import { recordAudit } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { registerSharedRateLimit, routeRateLimit } from '../../platform/rate-limit';
import { requireSession } from '../../platform/session';
import { listOwnDdeRequests } from './service';

/** Submissions per client address and minute: a person retrying, not a script. */
export const DDE_SUBMITS_PER_MINUTE = 20;

/** The locations the user is linked to (optionally one of them), with their enrollment facts when on file. */
function linkedLocations(db: DbExecutor, userId: string, locationId?: string) {
  return db
    .select({
      locationId: providerLocations.id,
      legalName: providerLocations.legalName,
      npi: providerLocations.npi,
      ptan: providerLocations.ptan,
      jurisdiction: providerLocations.jurisdiction,
      lineOfBusiness: providerLocations.lineOfBusiness,
      submitterId: ediEnrollments.submitterId,
      networkServiceVendor: ediEnrollments.networkServiceVendor,
      ddeAccessType: ediEnrollments.ddeAccessType,
      status: ediEnrollments.status,
    })
    .from(userLocations)
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .leftJoin(ediEnrollments, eq(ediEnrollments.locationId, providerLocations.id))
    .where(
      and(
        eq(userLocations.userId, userId),
        eq(userLocations.status, 'active'),
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
 * DDE access (docs/requirements/portal.md#dde-access-request): the enrollment facts that pre-fill the form, and the
 * request itself, for logged-in users linked to the location. A submission is idempotent on the form's key. The
 * user's own requests are listed for the portal home.
 */
export const ddeAccessRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);

  // Reading is not a change: no audit; only the caller's own requests.
  app.get(
    DDE_REQUESTS_PATH,
    { preHandler: requireSession, schema: { response: { 200: DdeRequestListResponse } } },
    async (request) => ({
      data: { requests: await listOwnDdeRequests({ db: app.database.db }, request.portalSession!.userId) },
    }),
  );

  app.post(
    GET_EASI_PATH,
    {
      config: { audit: { action: 'dde.easi' }, errors: { 403: ['Dde_Location_Not_Linked'] } },
      preHandler: requireSession,
      schema: { body: GetEasiRequest, response: { 200: GetEasiResponse } },
    },
    async (request) => {
      const { db } = app.database;
      const session = request.portalSession!;
      const rows = await linkedLocations(db, session.userId, request.body.locationId);
      if (request.body.locationId && !rows.length) {
        await recordAudit(db, {
          actor: session.userId,
          action: 'dde.easi',
          target: request.body.locationId,
          outcome: 'failure',
          ip: request.ip,
          requestId: request.id,
          details: { reason: 'not_linked' },
        });
        throw new PortalError(403, 'Dde_Location_Not_Linked');
      }
      return {
        data: {
          locations: rows.map(({ submitterId, networkServiceVendor, ddeAccessType, status, ...location }) => ({
            ...location,
            enrollment:
              submitterId && networkServiceVendor && ddeAccessType && status
                ? { submitterId, networkServiceVendor, ddeAccessType, status }
                : null,
          })),
        },
      };
    },
  );

  app.post(
    DDE_SUBMIT_PATH,
    {
      preHandler: requireSession,
      config: {
        audit: { action: 'dde.submit' },
        rateLimit: routeRateLimit({ max: DDE_SUBMITS_PER_MINUTE, timeWindow: 60_000, key: 'ip' }),
        errors: { 403: ['Dde_Location_Not_Linked'], 409: ['Dde_Idempotency_Conflict'] },
      },
      schema: { body: DdeSubmitRequest, response: { 200: DdeSubmitResponse } },
    },
    async (request) => {
      const { db } = app.database;
      const session = request.portalSession!;
      const { idempotencyKey, locationId, requestType, ...form } = request.body;
      const audit = { actor: session.userId, action: 'dde.submit', ip: request.ip, requestId: request.id } as const;
      const [location] = await linkedLocations(db, session.userId, locationId);
      if (!location) {
        await recordAudit(db, { ...audit, target: locationId, outcome: 'failure', details: { reason: 'not_linked' } });
        throw new PortalError(403, 'Dde_Location_Not_Linked');
      }
      const digest = requestDigest({ locationId, requestType, ...form });
      const year = app.clock().getUTCFullYear();
      const result = await db.transaction(async (tx) => {
        // A retry with the same key waits here for the first one's transaction, then finds its row.
        const [inserted] = await tx
          .insert(ddeRequests)
          .values({
            referenceNumber: sql`${`DDE-${year}-`} || lpad(nextval('dde_request_number_seq')::text, 6, '0')`,
            requesterId: session.userId,
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
            .where(and(eq(ddeRequests.requesterId, session.userId), eq(ddeRequests.idempotencyKey, idempotencyKey)));
          if (!first || first.requestHash !== digest) {
            await recordAudit(tx, {
              ...audit,
              target: first?.id,
              outcome: 'failure',
              details: { reason: 'key_reused', locationId },
            });
            return { conflict: true as const };
          }
          await recordAudit(tx, {
            ...audit,
            target: first.id,
            outcome: 'success',
            details: { reason: 'replay', locationId },
          });
          return { conflict: false as const, row: first, sent: false };
        }
        const [user] = await tx
          .select({ email: users.email, firstName: users.firstName })
          .from(users)
          .where(eq(users.id, session.userId));
        await enqueueEmail(tx, {
          to: user!.email,
          template: 'dde-request-received',
          data: {
            firstName: user!.firstName,
            referenceNumber: inserted.referenceNumber,
            legalName: location.legalName,
          },
        });
        await recordAudit(tx, { ...audit, target: inserted.id, outcome: 'success', details: { locationId } });
        return { conflict: false as const, row: inserted, sent: true };
      });
      if (result.conflict) throw new PortalError(409, 'Dde_Idempotency_Conflict');
      if (result.sent) app.jobs.kick(OUTBOX_JOB);
      return {
        data: { referenceNumber: result.row.referenceNumber, submittedAt: result.row.createdAt.toISOString() },
      };
    },
  );
};
