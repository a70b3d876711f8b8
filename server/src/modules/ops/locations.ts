import { maskTin } from '@portal/contracts/identifiers';
import type { OpsLocation } from '@portal/contracts/ops';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { linkInForce } from '../../db/links';
import { importRuns, providerLocations, userLocations, users } from '../../db/schema';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { audit } from '../../platform/service-context';
import { ENABLED_STATUSES, lockAdministrators } from '../admin/service';
import type { OpsActionContext } from './actions';
import { operatorActor, type Operator, type OpsContext } from './session';

/** How many of a location's people its page lists (by name). */
const PEOPLE_SHOWN = 100;

/** A location's page: identifiers (TIN's last 4 only), administrators and their state, people, its import run. */
export async function locationPage(ctx: Pick<OpsContext, 'db' | 'now'>, locationId: string): Promise<OpsLocation> {
  const { db } = ctx;
  const now = ctx.now();
  const [location] = await db
    .select({ location: providerLocations, run: importRuns })
    .from(providerLocations)
    .leftJoin(importRuns, eq(importRuns.id, providerLocations.importRunId))
    .where(eq(providerLocations.id, locationId));
  if (!location) throw new PortalError(404, 'Not_Found');
  const { location: l, run } = location;
  const [people, [count]] = await Promise.all([
    db
      .select({
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        status: users.status,
        role: userLocations.role,
        certifiedUntil: userLocations.certifiedUntil,
        inForce: sql<boolean>`${linkInForce(now)}`.mapWith(Boolean),
      })
      .from(userLocations)
      .innerJoin(users, eq(users.id, userLocations.userId))
      .where(eq(userLocations.locationId, locationId))
      .orderBy(asc(userLocations.role), asc(users.lastName), asc(users.firstName))
      .limit(PEOPLE_SHOWN),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(userLocations)
      .where(eq(userLocations.locationId, locationId)),
  ]);
  const enabled = (status: string) => (ENABLED_STATUSES as readonly string[]).includes(status);
  const administrators = people
    .filter((p) => p.role === 'administrator')
    .map((p) => ({
      userId: p.userId,
      name: `${p.firstName} ${p.lastName}`.trim(),
      username: p.username,
      status: p.status,
      linkStatus: p.inForce ? ('active' as const) : ('suspended' as const),
      certifiedUntil: p.certifiedUntil.toISOString(),
      working: p.inForce && enabled(p.status),
    }));
  return {
    locationId: l.id,
    legalName: l.legalName,
    npi: l.npi,
    ptan: l.ptan,
    jurisdiction: l.jurisdiction,
    lineOfBusiness: l.lineOfBusiness,
    state: l.state,
    tin: maskTin(l.tin),
    city: l.city,
    status: l.status,
    endDate: l.endDate,
    accessSuspendedAt: l.accessSuspendedAt?.toISOString() ?? null,
    hasWorkingAdministrator: administrators.some((a) => a.working),
    administrators,
    peopleCount: count?.n ?? 0,
    people: people.map((p) => ({
      userId: p.userId,
      name: `${p.firstName} ${p.lastName}`.trim(),
      username: p.username,
      role: p.role,
      status: p.status,
    })),
    importRun: run
      ? {
          id: run.id,
          kind: run.kind,
          mode: run.mode,
          fileName: run.fileName,
          finishedAt: run.finishedAt?.toISOString() ?? null,
          outcome: run.outcome,
        }
      : null,
  };
}

/**
 * A supervisor restores an administrator to a location that has no working one (docs/requirements/help-desk.md#actions):
 * the only way around the last-administrator rule, which otherwise keeps one in place. Under the location's lock (the
 * same lock and read every change to its administrators takes, `lockAdministrators`): 409
 * `Ops_Location_Has_Administrator` when it has a working administrator; the person must be linked to it with an
 * enabled account (400 `Ops_Restore_Person_Invalid`); 409 `Admin_Limit_Reached` at ADMINS_PER_LOCATION_MAX. The
 * person's link becomes an administrator link in force, certified for RECERTIFICATION_DAYS; the location's access
 * suspension is lifted; the person is emailed. Audited with the operator, the reason and the location.
 */
export async function restoreAdministrator(
  ctx: OpsActionContext,
  operator: Operator,
  locationId: string,
  userId: string,
  reason: string,
): Promise<OpsLocation> {
  const now = ctx.now();
  const actor = operatorActor(operator.operatorId);
  const refusal = await ctx.db.transaction(async (tx) => {
    const [location] = await tx
      .select({ legalName: providerLocations.legalName, suspendedAt: providerLocations.accessSuspendedAt })
      .from(providerLocations)
      .where(eq(providerLocations.id, locationId));
    if (!location) throw new PortalError(404, 'Not_Found');
    const administrators = await lockAdministrators(tx, [locationId], now);
    if (administrators.some((a) => a.working)) return { status: 409, code: 'Ops_Location_Has_Administrator' } as const;
    const [person] = await tx
      .select({ role: userLocations.role, status: users.status, email: users.email, firstName: users.firstName })
      .from(userLocations)
      .innerJoin(users, eq(users.id, userLocations.userId))
      .where(
        and(
          eq(userLocations.locationId, locationId),
          eq(userLocations.userId, userId),
          inArray(users.status, [...ENABLED_STATUSES]),
        ),
      )
      .for('update', { of: userLocations });
    if (!person) return { status: 400, code: 'Ops_Restore_Person_Invalid' } as const;
    if (person.role !== 'administrator' && administrators.length >= ctx.config.staff.adminsPerLocationMax)
      return { status: 409, code: 'Admin_Limit_Reached' } as const;
    await tx
      .update(userLocations)
      .set({
        role: 'administrator',
        status: 'active',
        certifiedUntil: new Date(now.getTime() + ctx.config.staff.recertificationDays * 86_400_000),
        certifiedBy: null,
        reminderDaysSent: null,
      })
      .where(and(eq(userLocations.locationId, locationId), eq(userLocations.userId, userId)));
    await tx.update(providerLocations).set({ accessSuspendedAt: null }).where(eq(providerLocations.id, locationId));
    await enqueueEmail(tx, {
      to: person.email,
      template: 'account-changed-by-admin',
      data: {
        firstName: person.firstName,
        change: 'made-administrator',
        by: 'help-desk',
        location: location.legalName,
      },
    });
    await audit(ctx, tx, {
      actor,
      action: 'ops.location.restore-administrator',
      target: userId,
      outcome: 'success',
      details: {
        locationId,
        field: 'role',
        operatorReason: reason,
        ...(location.suspendedAt ? { reason: 'access_suspended' } : {}),
      },
    });
    return null;
  });
  if (refusal) {
    await audit(ctx, ctx.db, {
      actor,
      action: 'ops.location.restore-administrator',
      target: userId,
      outcome: 'failure',
      details: { locationId, reason: refusal.code, operatorReason: reason },
    });
    throw new PortalError(refusal.status, refusal.code);
  }
  ctx.jobs.kick(OUTBOX_JOB);
  return locationPage(ctx, locationId);
}
