import { DDE_REQUEST_LIST_LIMIT, type DdeRequestSummary } from '@portal/contracts/login-help';
import { desc, eq } from 'drizzle-orm';
import { ddeRequests, providerLocations } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';

/** What the DDE access service needs: plain values, so a test calls it without Fastify. */
export interface DdeAccessContext {
  db: DbExecutor;
}

/**
 * The user's own DDE access requests, newest first (docs/requirements/portal.md#portal-home): what the portal home
 * shows as their status. Only the requester's rows, whatever locations they share with others.
 */
export async function listOwnDdeRequests(ctx: DdeAccessContext, userId: string): Promise<DdeRequestSummary[]> {
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
