import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { accessRequests, providerLocations, users } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import type { Job } from '../../platform/jobs';
import { enqueueEmail } from './emails';
import { LISTED_MAX } from '../../platform/mail/layout';
import { DAY_MS } from '@portal/contracts/time';
import { currentAdministrators, groupBy, locationLabel } from './links';

export const ACCESS_REQUEST_BATCH_JOB = 'access-request-notifications';
export const ACCESS_REQUEST_DIGEST_JOB = 'access-request-digest';
/**
 * How often the batch of new requests runs: a request is announced within this time, and an administrator gets at most
 * one such email per interval however many requests arrive (the runner claims each interval once across instances).
 */
export const ACCESS_REQUEST_NOTICE_INTERVAL_MS = 5 * 60 * 1000;

interface JobClock {
  now?: () => Date;
  intervalMs?: number;
}

type PendingRequest = Awaited<ReturnType<typeof pendingRequests>>[number];

/** Pending requests of active accounts (a requester whose email is not verified yet is not announced), oldest first. */
function pendingRequests(tx: DbExecutor, onlyUnannounced: boolean) {
  return tx
    .select({
      id: accessRequests.id,
      locationId: accessRequests.locationId,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      legalName: providerLocations.legalName,
      npi: providerLocations.npi,
    })
    .from(accessRequests)
    .innerJoin(users, eq(users.id, accessRequests.userId))
    .innerJoin(providerLocations, eq(providerLocations.id, accessRequests.locationId))
    .where(
      and(
        eq(accessRequests.status, 'pending'),
        eq(users.status, 'active'),
        ...(onlyUnannounced ? [isNull(accessRequests.notifiedAt)] : []),
      ),
    )
    .orderBy(asc(accessRequests.createdAt))
    .for('update', { of: accessRequests });
}

/** One email per current administrator listing the requests of their locations; answers the requests announced. */
async function emailAdministrators(
  tx: DbExecutor,
  requests: PendingRequest[],
  kind: 'new' | 'digest',
  now: Date,
): Promise<void> {
  const admins = await currentAdministrators(tx, [...new Set(requests.map((r) => r.locationId))], now);
  for (const [, ofAdmin] of groupBy(admins, (admin) => admin.userId)) {
    const locations = new Set(ofAdmin.map((admin) => admin.locationId));
    const listed = requests
      .filter((r) => locations.has(r.locationId))
      .map((r) => ({ name: `${r.firstName} ${r.lastName}`, username: r.username, location: locationLabel(r) }));
    if (!listed.length) continue;
    await enqueueEmail(tx, {
      to: ofAdmin[0]!.email,
      template: 'access-requests-pending',
      data: {
        firstName: ofAdmin[0]!.firstName,
        kind,
        requests: listed.slice(0, LISTED_MAX),
        more: Math.max(0, listed.length - LISTED_MAX),
      },
    });
  }
}

/**
 * The batch every 5 minutes (docs/requirements/staff-accounts.md#requests): each current administrator of a location is
 * emailed once about the requests that arrived since the last batch, all their locations in one email; the requests get
 * `notified_at`, so a run again (or another instance) sends nothing new.
 */
export function accessRequestBatchJob(settings: JobClock = {}): Job {
  return {
    name: ACCESS_REQUEST_BATCH_JOB,
    intervalMs: settings.intervalMs ?? ACCESS_REQUEST_NOTICE_INTERVAL_MS,
    async run(tx) {
      const now = settings.now?.() ?? new Date();
      const requests = await pendingRequests(tx, true);
      if (!requests.length) return;
      await emailAdministrators(tx, requests, 'new', now);
      await tx
        .update(accessRequests)
        .set({ notifiedAt: now })
        .where(
          inArray(
            accessRequests.id,
            requests.map((r) => r.id),
          ),
        );
    },
  };
}

/**
 * The weekly digest of the requests still pending, one email per current administrator. Its last run is the job
 * runner's claim in `app_state` (`job:access-request-digest`): at most one digest a week across instances and
 * restarts.
 */
export function accessRequestDigestJob(settings: JobClock = {}): Job {
  return {
    name: ACCESS_REQUEST_DIGEST_JOB,
    intervalMs: settings.intervalMs ?? 7 * DAY_MS,
    async run(tx) {
      const now = settings.now?.() ?? new Date();
      const requests = await pendingRequests(tx, false);
      if (requests.length) await emailAdministrators(tx, requests, 'digest', now);
    },
  };
}
