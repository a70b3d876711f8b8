import {
  ADMIN_PAGE_SIZE,
  type AccountStatus,
  type PersonDetail,
  type PersonLocation,
  type PersonSummary,
} from '@portal/contracts/admin';
import { and, asc, countDistinct, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { linkInForceColumn } from '../../db/links';
import { passkeys, providerLocations, userLocations, users } from '../../db/schema';
import { personSummaryColumns, wrongPasswordsToday } from '../../db/users';
import type { AdminGrant } from '../../identity/admin-guard';
import type { DbExecutor } from '../../platform/db-executor';
import type { ServiceContext } from '../../identity/service-context';
import { adminLocations, linkedElsewhere } from './scope';

/** `q` as a LIKE pattern matching it anywhere, its own `%`, `_` and `\` taken literally. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A person's status as the console shows it: an active account whose lock has not run out reads `locked`. */
function shownStatus(user: { status: AccountStatus; lockedUntil: Date | null }, now: Date): AccountStatus {
  return user.status === 'active' && user.lockedUntil && user.lockedUntil > now ? 'locked' : user.status;
}

/** Past the daily ceiling of wrong passwords only the help desk may unlock (docs/requirements/session.md#lockout). */
async function needsHelpDeskToUnlock(ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>, userId: string) {
  return (await wrongPasswordsToday(ctx.db, userId, ctx.now())) >= ctx.config.login.dailyFailureCeiling;
}

const personColumns = {
  ...personSummaryColumns,
  lockedUntil: users.lockedUntil,
  lastLoginAt: users.lastLoginAt,
  mfaEnrolledAt: users.mfaEnrolledAt,
  createdAt: users.createdAt,
};

/**
 * The links of `userIds` to the locations in scope (never another location's), by person. A link not in force at
 * `now` (db/links.ts: suspended, or past its date before the suspension job ran) reads `suspended`.
 */
async function linksInScope(
  db: DbExecutor,
  scope: ReturnType<typeof adminLocations>,
  userIds: string[],
  now: Date,
): Promise<Map<string, PersonLocation[]>> {
  const byPerson = new Map<string, PersonLocation[]>();
  if (!userIds.length) return byPerson;
  const rows = await db
    .select({
      userId: userLocations.userId,
      locationId: userLocations.locationId,
      legalName: providerLocations.legalName,
      npi: providerLocations.npi,
      role: userLocations.role,
      certifiedUntil: userLocations.certifiedUntil,
      inForce: linkInForceColumn(now),
    })
    .from(userLocations)
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .where(and(inArray(userLocations.userId, userIds), inArray(userLocations.locationId, scope)))
    .orderBy(asc(providerLocations.legalName), asc(providerLocations.npi));
  for (const { userId, certifiedUntil, inForce, ...link } of rows) {
    const list = byPerson.get(userId) ?? [];
    list.push({ ...link, certifiedUntil: certifiedUntil.toISOString(), status: inForce ? 'active' : 'suspended' });
    byPerson.set(userId, list);
  }
  return byPerson;
}

interface PersonRow {
  userId: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  status: AccountStatus;
  lockedUntil: Date | null;
  lastLoginAt: Date | null;
  mfaEnrolledAt: Date | null;
}

function summaryOf(
  row: PersonRow,
  locations: PersonLocation[],
  caller: { actorId: string; accountActions: boolean },
  now: Date,
  unlockNeedsHelpDesk: boolean,
): PersonSummary {
  return {
    userId: row.userId,
    name: `${row.firstName} ${row.lastName}`.trim(),
    username: row.username,
    email: row.email,
    status: shownStatus(row, now),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    mfaEnrolled: row.mfaEnrolledAt !== null,
    unlockNeedsHelpDesk,
    locations,
    accountActions: caller.accountActions,
    self: row.userId === caller.actorId,
  };
}

/**
 * The people linked to the administrator's locations (one of them with `grant.locationId`) whose name, username or
 * email contains `q`, any case; all of them without `q`. Sorted by last name, first name and username, a page at a
 * time. Each person carries only their links to those locations, and `total` counts only those people: the scope is
 * in the SQL, never filtered afterwards.
 */
export async function searchPeople(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>,
  grant: AdminGrant,
  input: { q?: string; page: number },
): Promise<{ items: PersonSummary[]; page: number; pageSize: number; total: number; hasMore: boolean }> {
  const { db } = ctx;
  const now = ctx.now();
  const scope = adminLocations(db, grant, now);
  const pattern = input.q ? containsPattern(input.q) : undefined;
  const conditions: SQL[] = [inArray(userLocations.locationId, scope)];
  if (pattern)
    conditions.push(
      or(
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
        ilike(users.username, pattern),
        ilike(users.email, pattern),
      )!,
    );
  const where = and(...conditions);
  const [rows, [totals]] = await Promise.all([
    db
      .selectDistinct(personColumns)
      .from(userLocations)
      .innerJoin(users, eq(users.id, userLocations.userId))
      .where(where)
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.username), asc(users.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset((input.page - 1) * ADMIN_PAGE_SIZE),
    db
      .select({ n: countDistinct(userLocations.userId) })
      .from(userLocations)
      .innerJoin(users, eq(users.id, userLocations.userId))
      .where(where),
  ]);
  const userIds = rows.map((row) => row.userId);
  const [links, elsewhere] = await Promise.all([
    linksInScope(db, scope, userIds, now),
    linkedElsewhere(db, grant.actorId, userIds, now),
  ]);
  const total = totals?.n ?? 0;
  // Only a locked person can need the help desk to unlock: their wrong passwords of the day are read, nobody else's.
  const needsHelpDesk = new Set(
    (
      await Promise.all(
        rows
          .filter((row) => shownStatus(row, now) === 'locked')
          .map(async (row) => ((await needsHelpDeskToUnlock(ctx, row.userId)) ? row.userId : undefined)),
      )
    ).filter((id) => id !== undefined),
  );
  return {
    items: rows.map((row) =>
      summaryOf(
        row,
        links.get(row.userId) ?? [],
        { actorId: grant.actorId, accountActions: !elsewhere.has(row.userId) },
        now,
        needsHelpDesk.has(row.userId),
      ),
    ),
    page: input.page,
    pageSize: ADMIN_PAGE_SIZE,
    total,
    hasMore: input.page * ADMIN_PAGE_SIZE < total,
  };
}

/**
 * One person as the administrator sees them: their account facts and their links to the administrator's locations
 * only; null when they have none (the guard lets a call through only for a person linked to one, but an action may
 * just have removed the last).
 */
export async function personDetail(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>,
  grant: Pick<AdminGrant, 'actorId'>,
  userId: string,
): Promise<PersonDetail | null> {
  const { db } = ctx;
  const now = ctx.now();
  const scope = adminLocations(db, { actorId: grant.actorId, locationId: null }, now);
  const [[row], links, [keys], elsewhere, unlockNeedsHelpDesk] = await Promise.all([
    db.select(personColumns).from(users).where(eq(users.id, userId)),
    linksInScope(db, scope, [userId], now),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(passkeys)
      .where(eq(passkeys.userId, userId)),
    linkedElsewhere(db, grant.actorId, [userId], now),
    needsHelpDeskToUnlock(ctx, userId),
  ]);
  const locations = links.get(userId);
  if (!row || !locations?.length) return null;
  return {
    ...summaryOf(
      row,
      locations,
      { actorId: grant.actorId, accountActions: !elsewhere.has(userId) },
      now,
      unlockNeedsHelpDesk,
    ),
    locked: row.lockedUntil !== null && row.lockedUntil > now,
    passkeyCount: keys?.n ?? 0,
    createdAt: row.createdAt.toISOString(),
  };
}
