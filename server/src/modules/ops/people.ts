import { maskPhone } from '@portal/contracts/fields';
import {
  OPS_SEARCH_LIMIT,
  type OpsAuditEvent,
  type OpsLocationSummary,
  type OpsPerson,
  type OpsPersonHit,
  type OpsStatusReason,
} from '@portal/contracts/ops';
import { and, asc, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { linkInForce } from '../../db/links';
import {
  accessRequests,
  auditEvents,
  invitations,
  mfaRecoveryCodes,
  operators,
  passkeys,
  providerLocations,
  sessions,
  userLocations,
  users,
} from '../../db/schema';
import { personSummaryColumns, wrongPasswordsToday } from '../../db/users';
import { locationSummaryColumns as locationSummary } from '../../db/locations';
import type { DbExecutor } from '../../platform/db-executor';
import { PortalError } from '../../platform/portal-error';
import { describeActivity } from '../account/service';
import { maskEmail } from '../find-admin/service';
import type { OpsContext } from './session';

/**
 * Find a person and their page (docs/requirements/help-desk.md). Read-only; the routes audit each read with the
 * operator. Emails and phones are masked here: the full value only through `revealField`, which is audited too.
 */

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function prefixPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A location as the console lists it: db/locations.ts's summary and the state. */
const locationSummaryColumns = { ...locationSummary, state: providerLocations.state };

/**
 * One box: a 10-digit NPI or a PTAN finds locations and their people; any text finds people whose username, email,
 * first name, last name or "first last" starts with it (any case). Every branch is answered by an index
 * (`*_prefix_idx`, `text_pattern_ops`), so the search stays fast at 100,000 users (bench/ops-search.ts).
 */
export async function searchPeople(
  ctx: Pick<OpsContext, 'db'>,
  query: string,
): Promise<{ people: OpsPersonHit[]; locations: OpsLocationSummary[]; truncated: boolean }> {
  const { db } = ctx;
  const text = query.trim();
  const lower = text.toLowerCase();
  const identifier = text.replace(/[\s-]/g, '').toUpperCase();
  const locationConditions: SQL[] = [];
  if (/^\d{10}$/.test(identifier)) locationConditions.push(eq(providerLocations.npi, identifier));
  if (/^[A-Z0-9]{6,10}$/.test(identifier))
    locationConditions.push(eq(sql`upper(${providerLocations.ptan})`, identifier));
  const locations = locationConditions.length
    ? await db
        .select(locationSummaryColumns)
        .from(providerLocations)
        .where(or(...locationConditions))
        .orderBy(asc(providerLocations.legalName))
        .limit(OPS_SEARCH_LIMIT + 1)
    : [];

  const pattern = prefixPattern(lower);
  const byUsername = sql`lower(${users.username}) like ${pattern}`;
  const byEmail = sql`lower(${users.email}) like ${pattern}`;
  const byName = or(
    sql`lower(${users.lastName}) like ${pattern}`,
    sql`lower(${users.firstName}) like ${pattern}`,
    sql`lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern}`,
  )!;
  const locationIds = locations.map((l) => l.locationId);
  const columns = {
    ...personSummaryColumns,
    matchedUsername: sql<boolean>`${byUsername}`.mapWith(Boolean),
    matchedEmail: sql<boolean>`${byEmail}`.mapWith(Boolean),
    matchedName: sql<boolean>`${byName}`.mapWith(Boolean),
  };
  const order = [
    desc(sql`lower(${users.username}) = ${lower}`),
    asc(users.lastName),
    asc(users.firstName),
    asc(users.username),
  ];
  // Two statements, each on its indexes: an OR of the prefixes with "linked to these locations" would scan users.
  const [byText, byLocation] = await Promise.all([
    db
      .select(columns)
      .from(users)
      .where(or(byUsername, byEmail, byName))
      .orderBy(...order)
      .limit(OPS_SEARCH_LIMIT + 1),
    locationIds.length
      ? db
          .select(columns)
          .from(users)
          .where(
            inArray(
              users.id,
              db
                .select({ userId: userLocations.userId })
                .from(userLocations)
                .where(inArray(userLocations.locationId, locationIds)),
            ),
          )
          .orderBy(...order)
          .limit(OPS_SEARCH_LIMIT + 1)
      : [],
  ]);
  const seen = new Set<string>();
  const rows = [...byText, ...byLocation].filter((row) => !seen.has(row.userId) && seen.add(row.userId));
  rows.sort(
    (a, b) =>
      Number(b.username.toLowerCase() === lower) - Number(a.username.toLowerCase() === lower) ||
      a.lastName.localeCompare(b.lastName) ||
      a.firstName.localeCompare(b.firstName) ||
      a.username.localeCompare(b.username),
  );
  const hits = rows.slice(0, OPS_SEARCH_LIMIT);
  const linked = hits.length
    ? await db
        .select({ userId: userLocations.userId, ...locationSummaryColumns })
        .from(userLocations)
        .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
        .where(
          inArray(
            userLocations.userId,
            hits.map((h) => h.userId),
          ),
        )
        .orderBy(asc(providerLocations.legalName))
    : [];
  const npiOrPtan = (userId: string) =>
    linked.find((l) => l.userId === userId && locationIds.includes(l.locationId))
      ? /^\d{10}$/.test(identifier)
        ? 'npi'
        : 'ptan'
      : null;
  return {
    people: hits.map((row) => ({
      userId: row.userId,
      name: `${row.firstName} ${row.lastName}`.trim(),
      username: row.username,
      email: maskEmail(row.email),
      status: row.status,
      matchedOn: row.matchedUsername
        ? 'username'
        : row.matchedEmail
          ? 'email'
          : row.matchedName
            ? 'name'
            : (npiOrPtan(row.userId) ?? 'name'),
      locations: linked
        .filter((l) => l.userId === row.userId)
        .slice(0, 5)
        .map(({ userId: _userId, ...location }) => location),
    })),
    locations: locations.slice(0, OPS_SEARCH_LIMIT),
    truncated: rows.length > OPS_SEARCH_LIMIT || locations.length > OPS_SEARCH_LIMIT,
  };
}

/** How many audit events the person's page shows. */
const AUDIT_EVENTS_SHOWN = 50;

/** A well-formed id (users' and operators' are UUIDs). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who acted, in words: the person, another user's username, an operator's name, or the system. */
async function actorNames(db: DbExecutor, userId: string, actors: (string | null)[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const userIds = [...new Set(actors.filter((a): a is string => !!a && UUID.test(a) && a !== userId))];
  // Only well-formed ids reach the uuid columns: an actor that is not one shows as "Someone else", never a 500.
  const operatorIds = [
    ...new Set(
      actors
        .filter((a): a is string => !!a?.startsWith('operator:'))
        .map((a) => a.slice('operator:'.length))
        .filter((id) => UUID.test(id)),
    ),
  ];
  if (userIds.length)
    for (const row of await db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(users.id, userIds)))
      names.set(row.id, row.username);
  if (operatorIds.length)
    for (const row of await db
      .select({ id: operators.id, name: operators.name })
      .from(operators)
      .where(inArray(operators.id, operatorIds)))
      names.set(`operator:${row.id}`, `${row.name} (help desk)`);
  return names;
}

/** The person's page: why they cannot get in, their second factors, sessions, locations, requests and history. */
export async function personPage(ctx: Pick<OpsContext, 'db' | 'now' | 'config'>, userId: string): Promise<OpsPerson> {
  const { db } = ctx;
  const now = ctx.now();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new PortalError(404, 'Not_Found');
  const [[keys], [codes], openSessions, links, requests, invites, events, wrongToday] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(passkeys)
      .where(eq(passkeys.userId, userId)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt))),
    db
      .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, userAgent: sessions.userAgent })
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          eq(sessions.stage, 'active'),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, new Date(now.getTime() - ctx.config.sessions.idleMs)),
        ),
      )
      .orderBy(desc(sessions.lastSeenAt)),
    db
      .select({
        ...locationSummaryColumns,
        role: userLocations.role,
        certifiedUntil: userLocations.certifiedUntil,
        inForce: sql<boolean>`${linkInForce(now)}`.mapWith(Boolean),
      })
      .from(userLocations)
      .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
      .where(eq(userLocations.userId, userId))
      .orderBy(asc(providerLocations.legalName)),
    db
      .select({ requestId: accessRequests.id, requestedAt: accessRequests.createdAt, ...locationSummaryColumns })
      .from(accessRequests)
      .innerJoin(providerLocations, eq(providerLocations.id, accessRequests.locationId))
      .where(and(eq(accessRequests.userId, userId), eq(accessRequests.status, 'pending'))),
    db
      .select({
        role: invitations.role,
        sentAt: invitations.createdAt,
        expiresAt: invitations.expiresAt,
        ...locationSummaryColumns,
      })
      .from(invitations)
      .innerJoin(providerLocations, eq(providerLocations.id, invitations.locationId))
      .where(
        and(
          sql`lower(${invitations.email}) = lower(${user.email})`,
          isNull(invitations.usedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, now),
        ),
      ),
    db
      .select({
        at: auditEvents.at,
        action: auditEvents.action,
        outcome: auditEvents.outcome,
        actor: auditEvents.actor,
        details: auditEvents.details,
      })
      .from(auditEvents)
      .where(or(eq(auditEvents.actor, userId), eq(auditEvents.target, userId)))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(AUDIT_EVENTS_SHOWN),
    wrongPasswordsToday(db, userId, now),
  ]);
  const names = await actorNames(
    db,
    userId,
    events.map((e) => e.actor),
  );

  const reasons: OpsStatusReason[] = [];
  const lockedNow = user.status === 'locked' || (user.lockedUntil !== null && user.lockedUntil > now);
  if (lockedNow)
    reasons.push({
      code: wrongToday >= ctx.config.login.dailyFailureCeiling ? 'locked_help_desk' : 'locked',
      until: user.lockedUntil && user.lockedUntil > now ? user.lockedUntil.toISOString() : null,
    });
  if (user.status === 'disabled_inactive') reasons.push({ code: 'disabled_inactive', until: null });
  if (user.status === 'disabled_admin') reasons.push({ code: 'disabled_admin', until: null });
  if (user.status === 'pending') reasons.push({ code: 'unverified', until: null });
  const authenticator = user.totpSecretEncrypted !== null && user.mfaEnrolledAt !== null;
  if (!authenticator && !(keys?.n ?? 0)) reasons.push({ code: 'mfa_not_set_up', until: null });
  if (!links.some((l) => l.inForce)) reasons.push({ code: 'no_location_access', until: null });

  const summary = ({ locationId, legalName, npi, ptan, jurisdiction, lineOfBusiness, state }: OpsLocationSummary) => ({
    locationId,
    legalName,
    npi,
    ptan,
    jurisdiction,
    lineOfBusiness,
    state,
  });
  return {
    userId: user.id,
    username: user.username,
    name: `${user.firstName} ${user.lastName}`.trim(),
    email: maskEmail(user.email),
    phone: maskPhone(user.phone),
    status: user.status,
    statusReasons: reasons,
    mfa: { authenticator, passkeys: keys?.n ?? 0, recoveryCodesLeft: codes?.n ?? 0 },
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    sessions: openSessions.map((s) => ({
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      userAgent: s.userAgent,
    })),
    locations: links.map((l) => ({
      ...summary(l),
      role: l.role,
      linkStatus: l.inForce ? 'active' : 'suspended',
      certifiedUntil: l.certifiedUntil.toISOString(),
    })),
    pendingRequests: requests.map((r) => ({
      requestId: r.requestId,
      location: summary(r),
      requestedAt: r.requestedAt.toISOString(),
    })),
    invitations: invites.map((i) => ({
      location: summary(i),
      role: i.role,
      sentAt: i.sentAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
    })),
    auditEvents: events.map((e): OpsAuditEvent => ({
      at: e.at.toISOString(),
      action: e.action,
      label: describeActivity(e.action, e.outcome, e.details?.method),
      outcome: e.outcome,
      actor:
        e.actor === userId
          ? `${user.username} (the person)`
          : e.actor === 'system'
            ? 'System'
            : e.actor
              ? (names.get(e.actor) ?? 'Someone else')
              : 'Unknown',
      reason: typeof e.details?.operatorReason === 'string' ? e.details.operatorReason : null,
    })),
  };
}

/** The full email or phone of a person (the route audits the view with the operator). */
export async function revealField(
  ctx: Pick<OpsContext, 'db'>,
  userId: string,
  field: 'email' | 'phone',
): Promise<string | null> {
  const [user] = await ctx.db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new PortalError(404, 'Not_Found');
  return field === 'email' ? user.email : user.phone;
}
