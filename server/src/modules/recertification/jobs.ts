import { DAY_MS } from '@portal/contracts/time';
import { and, asc, eq, inArray, isNull, lte, notExists, sql } from 'drizzle-orm';
import { linkInForce } from '../../db/links';
import { providerLocations, userLocations, users } from '../../db/schema';
import { recordAudit } from '../../platform/audit';
import type { Job } from '../../platform/jobs';
import { enqueueEmail } from './emails';
import { LISTED_MAX } from '../../platform/mail/layout';
import { DUE_WITHIN_DAYS, currentAdministrators, daysLeft, groupBy, locationLabel, reminderThreshold } from './links';
import { accessRequestBatchJob, accessRequestDigestJob } from './access-request-notices';

export const RECERTIFICATION_REMINDER_JOB = 'recertification-reminders';
export const RECERTIFICATION_SUSPENSION_JOB = 'recertification-suspension';
const HOUR_MS = 60 * 60 * 1000;
/** Links suspended per run; a larger backlog continues at once in the next transaction (`more`). */
const SUSPENSION_BATCH = 500;

interface JobClock {
  now?: () => Date;
  intervalMs?: number;
}

/**
 * Reminds the administrators of a location of the links falling due
 * (docs/requirements/staff-accounts.md#annual-recertification): from 45 days before `certified_until`, at 45, 30, 15,
 * 7 and 1 days. `reminder_days_sent` keeps the
 * threshold last sent, so each is sent once per link and date whatever the number of runs or instances; a link first
 * seen late (10 days before) gets one reminder (15), not three. Each current administrator gets one email per run
 * listing the due links of all their locations, never their own (administrators certify each other).
 */
export function recertificationReminderJob(settings: JobClock = {}): Job {
  return {
    name: RECERTIFICATION_REMINDER_JOB,
    intervalMs: settings.intervalMs ?? HOUR_MS,
    async run(tx) {
      const now = settings.now?.() ?? new Date();
      const horizon = new Date(now.getTime() + DUE_WITHIN_DAYS * DAY_MS);
      const due = await tx
        .select({
          userId: userLocations.userId,
          locationId: userLocations.locationId,
          certifiedUntil: userLocations.certifiedUntil,
          reminderDaysSent: userLocations.reminderDaysSent,
          firstName: users.firstName,
          lastName: users.lastName,
          legalName: providerLocations.legalName,
          npi: providerLocations.npi,
        })
        .from(userLocations)
        .innerJoin(users, eq(users.id, userLocations.userId))
        .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
        .where(
          and(
            linkInForce(now),
            lte(userLocations.certifiedUntil, horizon),
            isNull(providerLocations.accessSuspendedAt),
          ),
        )
        .orderBy(asc(userLocations.certifiedUntil))
        .for('update', { of: userLocations });
      const toSend = due
        .map((link) => ({ ...link, days: daysLeft(link.certifiedUntil, now) }))
        .map((link) => ({ ...link, threshold: reminderThreshold(link.days)! }))
        .filter((link) => link.reminderDaysSent === null || link.reminderDaysSent > link.threshold);
      if (!toSend.length) return;

      for (const [threshold, links] of groupBy(toSend, (link) => String(link.threshold)))
        for (const [locationId, ofLocation] of groupBy(links, (link) => link.locationId))
          await tx
            .update(userLocations)
            .set({ reminderDaysSent: Number(threshold) })
            .where(
              and(
                eq(userLocations.locationId, locationId),
                inArray(
                  userLocations.userId,
                  ofLocation.map((link) => link.userId),
                ),
              ),
            );

      const admins = await currentAdministrators(tx, [...new Set(toSend.map((link) => link.locationId))], now);
      for (const [, ofAdmin] of groupBy(admins, (admin) => admin.userId)) {
        const locations = new Set(ofAdmin.map((admin) => admin.locationId));
        const people = toSend
          .filter((link) => locations.has(link.locationId) && link.userId !== ofAdmin[0]!.userId)
          .map((link) => ({
            name: `${link.firstName} ${link.lastName}`,
            location: locationLabel(link),
            daysLeft: link.days,
          }));
        if (!people.length) continue;
        await enqueueEmail(tx, {
          to: ofAdmin[0]!.email,
          template: 'recertification-due',
          data: {
            firstName: ofAdmin[0]!.firstName,
            people: people.slice(0, LISTED_MAX),
            more: Math.max(0, people.length - LISTED_MAX),
          },
        });
      }
    },
  };
}

/**
 * Marks the links past their `certified_until` `suspended` and emails each person once per run: the bookkeeping only,
 * since a link stops granting at its date already (db/links.ts: DDE access, administration and My account read links
 * in force by the app's clock). A location left without a current
 * administrator gets `access_suspended_at`: its people's access stays suspended until the help desk restores it.
 */
export function recertificationSuspensionJob(settings: JobClock = {}): Job {
  return {
    name: RECERTIFICATION_SUSPENSION_JOB,
    intervalMs: settings.intervalMs ?? HOUR_MS,
    async run(tx) {
      const now = settings.now?.() ?? new Date();
      const lapsedKeys = await tx
        .select({ userId: userLocations.userId, locationId: userLocations.locationId })
        .from(userLocations)
        .where(and(eq(userLocations.status, 'active'), lte(userLocations.certifiedUntil, now)))
        .orderBy(asc(userLocations.certifiedUntil))
        .limit(SUSPENSION_BATCH)
        .for('update', { skipLocked: true });
      if (!lapsedKeys.length) return;
      const lapsed: { userId: string; locationId: string }[] = [];
      for (const [locationId, links] of groupBy(lapsedKeys, (link) => link.locationId))
        lapsed.push(
          ...(await tx
            .update(userLocations)
            .set({ status: 'suspended' })
            .where(
              and(
                eq(userLocations.locationId, locationId),
                inArray(
                  userLocations.userId,
                  links.map((link) => link.userId),
                ),
                eq(userLocations.status, 'active'),
              ),
            )
            .returning({ userId: userLocations.userId, locationId: userLocations.locationId })),
        );

      const locationIds = [...new Set(lapsed.map((link) => link.locationId))];
      const locations = new Map(
        (
          await tx
            .select({ id: providerLocations.id, legalName: providerLocations.legalName, npi: providerLocations.npi })
            .from(providerLocations)
            .where(inArray(providerLocations.id, locationIds))
        ).map((location) => [location.id, location]),
      );
      for (const [userId, links] of groupBy(lapsed, (link) => link.userId)) {
        for (const link of links)
          await recordAudit(tx, {
            actor: 'system',
            action: 'recertification.lapsed',
            target: userId,
            outcome: 'success',
            details: { locationId: link.locationId },
          });
        const [person] = await tx
          .select({ email: users.email, firstName: users.firstName, status: users.status })
          .from(users)
          .where(eq(users.id, userId));
        if (!person || person.status !== 'active') continue;
        await enqueueEmail(tx, {
          to: person.email,
          template: 'location-access-suspended',
          data: {
            firstName: person.firstName,
            locations: links.slice(0, 50).map((link) => locationLabel(locations.get(link.locationId)!)),
          },
        });
      }

      const current = tx
        .select({ one: sql`1` })
        .from(userLocations)
        .where(
          and(
            eq(userLocations.locationId, providerLocations.id),
            eq(userLocations.role, 'administrator'),
            linkInForce(now),
          ),
        );
      const suspended = await tx
        .update(providerLocations)
        .set({ accessSuspendedAt: now })
        .where(
          and(
            inArray(providerLocations.id, locationIds),
            isNull(providerLocations.accessSuspendedAt),
            notExists(current),
          ),
        )
        .returning({ id: providerLocations.id });
      for (const location of suspended)
        await recordAudit(tx, {
          actor: 'system',
          action: 'location.access-suspended',
          target: location.id,
          outcome: 'success',
          details: { reason: 'no current administrator' },
        });
      return { more: lapsedKeys.length === SUSPENSION_BATCH };
    },
  };
}

/** The staff-account jobs (docs/decisions/0041), on the app's clock. */
export function staffAccountJobs(settings: { now: () => Date }): Job[] {
  return [
    recertificationReminderJob(settings),
    recertificationSuspensionJob(settings),
    accessRequestBatchJob(settings),
    accessRequestDigestJob(settings),
  ];
}
