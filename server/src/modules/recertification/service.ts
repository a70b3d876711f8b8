import type { DueRecertification, RecertificationDecision } from '@portal/contracts/recertification';
import { and, asc, eq, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { providerLocations, userLocations, users } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import { administeredLocations as administeredLocationsQuery, type UserRef } from '../../identity/admin-guard';
import { PortalError } from '../../platform/portal-error';
import { checkAdministratorChange } from '../admin/service';
import { audit, type ServiceContext } from '../../identity/service-context';
import { DAY_MS } from '@portal/contracts/time';
import { DUE_WITHIN_DAYS } from './links';

type Ctx = Pick<ServiceContext, 'db' | 'now' | 'config' | 'client'>;

/**
 * The locations the user administers at `now` (the app's clock): the admin guard's own definition
 * (docs/decisions/0039-admin-guard.md), so the list, the decisions and the guard agree.
 */
async function administeredLocations(db: DbExecutor, userId: string, now: Date): Promise<string[]> {
  const rows = await administeredLocationsQuery(db, userId, now);
  return rows.map((row) => row.locationId);
}

/**
 * The links the administrator decides on: of their locations, not their own (administrators certify each other),
 * due within 45 days or overdue (an overdue link is suspended by the job; keeping it restores it).
 */
function decidableLinks(
  locationIds: string[] | ReturnType<typeof administeredLocationsQuery>,
  adminId: UserRef,
  now: Date | SQL,
) {
  const dueBy =
    now instanceof Date
      ? new Date(now.getTime() + DUE_WITHIN_DAYS * DAY_MS)
      : sql`(${now} + ${sql.raw(String(DUE_WITHIN_DAYS))} * interval '1 day')`;
  return and(
    inArray(userLocations.locationId, locationIds),
    ne(userLocations.userId, adminId),
    lte(userLocations.certifiedUntil, dueBy),
    or(eq(userLocations.status, 'active'), eq(userLocations.status, 'suspended')),
  );
}

/** `GET /api/admin/recertifications`: the due and overdue links of the caller's locations, most urgent first. */
export async function dueRecertifications(ctx: Ctx, adminId: string): Promise<DueRecertification[]> {
  const now = ctx.now();
  const locations = await administeredLocations(ctx.db, adminId, now);
  if (!locations.length) return [];
  const rows = await ctx.db
    .select({
      userId: userLocations.userId,
      locationId: userLocations.locationId,
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      legalName: providerLocations.legalName,
      npi: providerLocations.npi,
      role: userLocations.role,
      certifiedUntil: userLocations.certifiedUntil,
    })
    .from(userLocations)
    .innerJoin(users, eq(users.id, userLocations.userId))
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .where(decidableLinks(locations, adminId, now))
    .orderBy(asc(userLocations.certifiedUntil), asc(users.lastName), asc(users.firstName))
    .limit(1000);
  return rows.map((row) => ({
    userId: row.userId,
    locationId: row.locationId,
    name: `${row.firstName} ${row.lastName}`,
    username: row.username,
    legalName: row.legalName,
    npi: row.npi,
    role: row.role,
    certifiedUntil: row.certifiedUntil.toISOString(),
    overdue: row.certifiedUntil.getTime() <= now.getTime(),
  }));
}

/**
 * "The user administers a location with an overdue link of another person" as a boolean SQL expression: the web app
 * then keeps them on the recertification screen until it is done
 * (docs/requirements/staff-accounts.md#annual-recertification). The session lookup reads it in its own statement,
 * with `userId` the session's user column.
 */
export function overdueRecertificationsSql(db: DbExecutor, userId: UserRef, now: Date | SQL): SQL<boolean> {
  const overdue = db
    .select({ one: sql`1` })
    .from(userLocations)
    .where(
      and(
        decidableLinks(administeredLocationsQuery(db, userId, now), userId, now),
        lte(userLocations.certifiedUntil, now),
      ),
    );
  return sql<boolean>`exists(${overdue})`;
}

/**
 * Whether the user is held by an overdue recertification at `now` (the admin guard's hold: every administrator call
 * but the recertification's answers 403 `Recertification_Overdue` meanwhile). The same condition as the session's.
 */
export async function recertificationHold(db: DbExecutor, userId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ held: overdueRecertificationsSql(db, users.id, now) })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(row?.held);
}

/**
 * `POST /api/admin/recertifications`: keep (certified for RECERTIFICATION_DAYS more, by the caller; reminders start
 * again; a suspended link is active again) or remove (the link is deleted). All or nothing: a decision naming a link
 * the caller may not decide on (another location's, their own, one not due) answers 404 `Not_Found` and changes
 * nothing, so ids of other locations reveal nothing. A removal takes the locations' locks and follows the rule of every
 * change that removes an administrator (409 `Last_Administrator`). Each decision is audited with the person as target.
 */
export async function recertify(
  ctx: Ctx,
  adminId: string,
  decisions: RecertificationDecision[],
): Promise<{ kept: number; removed: number }> {
  const now = ctx.now();
  const key = (d: { userId: string; locationId: string }) => `${d.userId}/${d.locationId}`;
  const unique = new Map(decisions.map((d) => [key(d), d]));
  return ctx.db.transaction(async (tx) => {
    const locations = await administeredLocations(tx, adminId, now);
    const wanted = [...unique.values()];
    if (wanted.some((d) => !locations.includes(d.locationId))) throw new PortalError(404, 'Not_Found');
    // The rule every change that removes an administrator follows, under the same locks (admin/scope.ts): the caller
    // still administers each location, and each keeps a working administrator after the removals.
    const { refusal } = await checkAdministratorChange(tx, {
      actorId: adminId,
      locationIds: wanted.map((d) => d.locationId),
      now,
      losses: wanted.filter((d) => d.decision === 'remove'),
    });
    if (refusal) throw new PortalError(409, refusal);
    const found = locations.length
      ? await tx
          .select({ userId: userLocations.userId, locationId: userLocations.locationId })
          .from(userLocations)
          .where(
            and(
              decidableLinks(locations, adminId, now),
              inArray(
                userLocations.userId,
                wanted.map((d) => d.userId),
              ),
            ),
          )
          .for('update')
      : [];
    const decidable = new Set(found.map(key));
    if (wanted.some((d) => !decidable.has(key(d)))) throw new PortalError(404, 'Not_Found');

    const until = new Date(now.getTime() + ctx.config.staff.recertificationDays * DAY_MS);
    let kept = 0;
    let removed = 0;
    for (const d of wanted) {
      const link = and(eq(userLocations.userId, d.userId), eq(userLocations.locationId, d.locationId));
      if (d.decision === 'keep') {
        await tx
          .update(userLocations)
          .set({ certifiedUntil: until, certifiedBy: adminId, reminderDaysSent: null, status: 'active' })
          .where(link);
        kept++;
      } else {
        await tx.delete(userLocations).where(link);
        removed++;
      }
      await audit(ctx, tx, {
        actor: adminId,
        action: d.decision === 'keep' ? 'recertification.kept' : 'recertification.removed',
        target: d.userId,
        outcome: 'success',
        details: { locationId: d.locationId, ...(d.decision === 'keep' ? { until: until.toISOString() } : {}) },
      });
    }
    return { kept, removed };
  });
}
