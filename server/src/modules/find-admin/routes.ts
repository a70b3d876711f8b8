import { FIND_ADMIN_PATH, FindAdminRequest, FindAdminResponse } from '@portal/contracts/login-help';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { providerLocations, userLocations, users } from '../../db/schema';
import { recordAudit } from '../../platform/audit';
import { PortalError } from '../../platform/portal-error';
import {
  clientKey,
  countAttempt,
  registerSharedRateLimit,
  retryAfterHeader,
  routeRateLimit,
} from '../../platform/rate-limit';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `jane@example.com` → `j••••@example.com`: the first character, four dots whatever the length, the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '••••';
  return `${[...email.slice(0, at)][0]}••••${email.slice(at)}`;
}

/**
 * `POST /api/locations/public-find-admin` (docs/requirements/portal.md#find-my-administrator): anyone may ask who
 * administers a location they can name by NPI + PTAN + TIN. Answers names and masked emails only; no match is one
 * code whichever identifier was wrong. Throttled per client per minute (the route) and per day (a counter).
 */
export const findAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerSharedRateLimit(app);
  const { findAdminPerMinute, findAdminPerDay } = app.config.loginHelp;

  app.post(
    FIND_ADMIN_PATH,
    {
      config: {
        rateLimit: routeRateLimit({ max: findAdminPerMinute, timeWindow: 60_000, key: 'ip' }),
        errors: { 404: ['Find_Admin_No_Match'] },
      },
      schema: { body: FindAdminRequest, response: { 200: FindAdminResponse } },
    },
    async (request, reply) => {
      const { db } = app.database;
      reply.header('cache-control', 'no-store');
      const daily = await countAttempt(db, `find-admin-day|${clientKey(request)}`, DAY_MS);
      if (daily.count > findAdminPerDay)
        throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(daily.ttlMs));
      const { npi, ptan, tin } = request.body;
      const locations = await db
        .select({ id: providerLocations.id })
        .from(providerLocations)
        .where(
          and(
            eq(providerLocations.npi, npi),
            eq(providerLocations.ptan, ptan),
            eq(providerLocations.tin, tin),
            eq(providerLocations.status, 'active'),
          ),
        );
      const audit = { actor: null, action: 'location.find-admin', ip: request.ip, requestId: request.id } as const;
      if (!locations.length) {
        // The TIN never goes in: the NPI and PTAN are enough to see what was asked.
        await recordAudit(db, { ...audit, outcome: 'failure', details: { reason: 'no_match', npi, ptan } });
        throw new PortalError(404, 'Find_Admin_No_Match');
      }
      const administrators = await db
        .selectDistinct({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
        .from(userLocations)
        .innerJoin(users, eq(users.id, userLocations.userId))
        .where(
          and(
            eq(userLocations.role, 'administrator'),
            eq(userLocations.status, 'active'),
            eq(users.status, 'active'),
            // One NPI + PTAN may be enrolled for Part A and Part B: both locations' administrators.
            inArray(
              userLocations.locationId,
              locations.map((l) => l.id),
            ),
          ),
        )
        .orderBy(asc(users.lastName), asc(users.firstName));
      await recordAudit(db, {
        ...audit,
        target: locations[0]!.id,
        outcome: 'success',
        details: { npi, ptan, count: administrators.length },
      });
      return {
        data: {
          administrators: administrators.map((a) => ({
            firstName: a.firstName,
            lastName: a.lastName,
            maskedEmail: maskEmail(a.email),
          })),
        },
      };
    },
  );
};
