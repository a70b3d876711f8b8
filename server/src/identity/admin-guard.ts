import { and, eq, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { linkInForce } from '../db/links';
import { accessRequests, providerLocations, userLocations } from '../db/schema';
import type { DbExecutor } from '../platform/db-executor';
import { PortalError } from '../platform/portal-error';
import { guardErrors } from '../platform/route-errors';
import { requireSession } from './sessions/guards';

/**
 * The ONE authorization check of the administrator's API (docs/decisions/0039-admin-guard.md,
 * docs/requirements/staff-accounts.md#authorization). Every route under `/api/admin` declares in `config.adminScope`
 * where its target's location comes from; this plugin adds the session check and the guard to each such route as it
 * is declared, and refuses to start with an admin route that declares none. The guard answers 404 `Not_Found` (no
 * data: the same answer as for an id that does not exist) unless the logged-in user administers that location by the
 * app's clock: an administrator link in force (db/links.ts: active and not past its date) on a location whose access
 * is not suspended. Handlers never check again; list services scope their SQL to `administeredLocations`.
 */

/** Under this prefix every route is guarded. */
export const ADMIN_API_PREFIX = '/api/admin/';

/**
 * Where a route's target location comes from:
 * - `location`: the `:locationId` path parameter;
 * - `access-request`: the location of the access request `:requestId`;
 * - `link`: the `:userId` person's link to the `:locationId` location (the link must exist);
 * - `person`: the `:userId` person, linked to at least one location the caller administers (any of them);
 * - `body-location`: the body's `locationId` (a state change naming its location in the body);
 * - `administered`: lists over the caller's own locations (scoped in SQL by the service); an optional `?locationId`
 *   query parameter must be one of them.
 */
export type AdminScope = 'location' | 'access-request' | 'link' | 'person' | 'body-location' | 'administered';

/** The path parameters each scope reads, by name. */
const SCOPE_PARAMS: Record<AdminScope, readonly string[]> = {
  location: ['locationId'],
  'access-request': ['requestId'],
  link: ['userId', 'locationId'],
  person: ['userId'],
  'body-location': [],
  administered: [],
};

/** What the guard established, for the handler: the acting administrator and the target location when one. */
export interface AdminGrant {
  actorId: string;
  /** The target's location (null for `person` and `administered` scopes). */
  locationId: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route under `/api/admin` (the server does not start otherwise). */
    adminScope?: AdminScope;
    /** The recertification's own routes: open while the caller's recertification is overdue (the hold). */
    recertificationRoute?: true;
  }
  interface FastifyRequest {
    /** Set by the admin guard on every `/api/admin` route it let through. */
    adminGrant?: AdminGrant;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user: their id, or a column holding it (a subquery correlated with an outer statement's user). */
export type UserRef = string | AnyColumn;

/**
 * The conditions of "`userId` administers the location of `ul`" at `now` (the app's clock): an administrator link in
 * force (db/links.ts), on a location whose access is not suspended.
 */
function administratorLink(userId: UserRef, now: Date | SQL): SQL {
  return and(
    eq(userLocations.userId, userId),
    eq(userLocations.role, 'administrator'),
    linkInForce(now),
    isNull(providerLocations.accessSuspendedAt),
  )!;
}

/**
 * The locations `userId` administers at `now` (the app's clock) as a subquery of location ids: lists put it in their
 * SQL (`inArray(table.locationId, administeredLocations(db, userId, now))`), so they never read another location.
 */
export function administeredLocations(db: DbExecutor, userId: UserRef, now: Date | SQL) {
  return db
    .select({ locationId: userLocations.locationId })
    .from(userLocations)
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .where(administratorLink(userId, now));
}

/** Whether `userId` administers `locationId` at `now` (the app's clock). */
export async function administersLocation(
  db: DbExecutor,
  userId: string,
  locationId: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(userLocations)
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .where(and(administratorLink(userId, now), eq(userLocations.locationId, locationId)))
    .limit(1);
  return Boolean(row);
}

/**
 * "`userId` administers at least one location at `now`" as a boolean SQL expression: the session lookup reads it in
 * its own statement (the session's `administersLocation`, docs/decisions/0020), with `userId` the session's user
 * column.
 */
export function administersAnyLocationSql(db: DbExecutor, userId: UserRef, now: Date | SQL): SQL<boolean> {
  return sql<boolean>`exists(${administeredLocations(db, userId, now)})`;
}

/** Whether `userId` administers at least one location at `now` (the app's clock). */
export async function administersAnyLocation(db: DbExecutor, userId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(userLocations)
    .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
    .where(administratorLink(userId, now))
    .limit(1);
  return Boolean(row);
}

/** Whether the person `targetId` has a link (of any role or status) to a location `userId` administers at `now`. */
async function administersPerson(db: DbExecutor, userId: string, targetId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(userLocations)
    .where(
      and(
        eq(userLocations.userId, targetId),
        inArray(userLocations.locationId, administeredLocations(db, userId, now)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Whether the person `targetId` is linked to `locationId`. */
async function isLinked(db: DbExecutor, targetId: string, locationId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(userLocations)
    .where(and(eq(userLocations.userId, targetId), eq(userLocations.locationId, locationId)))
    .limit(1);
  return Boolean(row);
}

/** An id the guard reads, or nothing when it is absent or not a UUID (an unknown id: 404 like any other). */
function idOf(value: unknown): string | undefined {
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
}

const notFound = () => new PortalError(404, 'Not_Found');

/** The target's location the caller may act on at `now` (the app's clock), or a 404. */
export async function checkAdminScope(
  db: DbExecutor,
  actorId: string,
  scope: AdminScope,
  input: { params: unknown; query: unknown; body: unknown },
  now: Date,
): Promise<AdminGrant> {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const grant = (locationId: string | null): AdminGrant => ({ actorId, locationId });
  switch (scope) {
    case 'administered': {
      const query = (input.query ?? {}) as Record<string, unknown>;
      if (query.locationId === undefined) {
        if (await administersAnyLocation(db, actorId, now)) return grant(null);
        throw notFound();
      }
      const locationId = idOf(query.locationId);
      if (locationId && (await administersLocation(db, actorId, locationId, now))) return grant(locationId);
      throw notFound();
    }
    case 'location':
    case 'body-location': {
      const source = scope === 'location' ? params : ((input.body ?? {}) as Record<string, unknown>);
      const locationId = idOf(source.locationId);
      if (locationId && (await administersLocation(db, actorId, locationId, now))) return grant(locationId);
      throw notFound();
    }
    case 'access-request': {
      const requestId = idOf(params.requestId);
      if (!requestId) throw notFound();
      const [request] = await db
        .select({ locationId: accessRequests.locationId })
        .from(accessRequests)
        .where(eq(accessRequests.id, requestId));
      if (request && (await administersLocation(db, actorId, request.locationId, now)))
        return grant(request.locationId);
      throw notFound();
    }
    case 'link': {
      const userId = idOf(params.userId);
      const locationId = idOf(params.locationId);
      if (
        userId &&
        locationId &&
        (await administersLocation(db, actorId, locationId, now)) &&
        (await isLinked(db, userId, locationId))
      )
        return grant(locationId);
      throw notFound();
    }
    case 'person': {
      const userId = idOf(params.userId);
      if (userId && (await administersPerson(db, actorId, userId, now))) return grant(null);
      throw notFound();
    }
  }
}

/**
 * Whether the user is held by an overdue recertification at `now`: they administer a location with another person's
 * link past its date (the recertification module's definition, given to the plugin by the app).
 */
export type RecertificationHold = (db: DbExecutor, userId: string, now: Date) => Promise<boolean>;

/**
 * The guard hook: after `requireSession`, before validation (an outsider learns nothing, not even a field error).
 * Then the recertification hold: while the caller's recertification is overdue, every administrator call but the
 * recertification's own answers 403 `Recertification_Overdue` (docs/requirements/staff-accounts.md#annual-recertification).
 */
function adminGuard(hold: RecertificationHold | undefined): preHandlerAsyncHookHandler {
  return guardErrors(
    async function (request: FastifyRequest) {
      const { adminScope: scope, recertificationRoute } = request.routeOptions.config;
      const session = request.portalSession;
      // Both are set for every route the plugin guards; their absence is a wiring mistake, answered as a refusal.
      if (!scope || !session) throw notFound();
      const { db } = request.server.database;
      const now = request.server.clock();
      request.adminGrant = await checkAdminScope(db, session.userId, scope, request, now);
      if (hold && !recertificationRoute && (await hold(db, session.userId, now)))
        throw new PortalError(403, 'Recertification_Overdue');
    } as preHandlerAsyncHookHandler,
    { 403: ['Recertification_Overdue'], 404: ['Not_Found'] },
  );
}

/**
 * Registers the guard on every route under `/api/admin` declared after it (register it before the routes, with the
 * other route-table plugins). A route there without `config.adminScope`, or whose path lacks a parameter its scope
 * reads, stops the server at startup. `recertificationHold` (the app gives it) keeps an overdue administrator to the
 * recertification's routes.
 */
export const adminGuardPlugin = fp(
  async (app: FastifyInstance, options: { recertificationHold?: RecertificationHold }) => {
    const guard = adminGuard(options.recertificationHold);
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith(ADMIN_API_PREFIX)) return;
      const scope = route.config?.adminScope;
      if (!scope || !(scope in SCOPE_PARAMS))
        throw new Error(`${route.url}: every /api/admin route declares config.adminScope (identity/admin-guard.ts)`);
      for (const name of SCOPE_PARAMS[scope])
        if (!route.url.includes(`:${name}`)) throw new Error(`${route.url}: adminScope '${scope}' reads :${name}`);
      // Session, then the guard, before validation and before the route's own preValidation/preHandler hooks
      // (re-authentication among them): an outsider is refused before anything else is said.
      route.preValidation = [requireSession, guard, ...[route.preValidation ?? []].flat()];
    });
  },
);
