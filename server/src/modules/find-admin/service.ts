import { FIND_ADMIN_CONTACT_TOKEN_TTL_MS, type FindAdminContactRequest } from '@portal/contracts/find-admin';
import type { FindAdminRequest, LocationAdministrator } from '@portal/contracts/find-admin';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod/mini';
import { linkInForce } from '../../db/links';
import { locationInForce } from '../../db/locations';
import { providerLocations, userLocations, users } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { clientKeyOfAddress, countAttempt, retryAfterHeader } from '../../platform/rate-limit';
import { audit, type ServiceContext } from '../../identity/service-context';
import { issueSignedLocationToken, readSignedLocationToken } from '../../identity/locations/signed-token';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The key purpose of the contact relay's handle: a registration token is refused here, and the other way round. */
const CONTACT_TOKEN_PURPOSE = 'find-admin-contact-token';

/** What the find-admin flows take of the service context (docs/architecture.md#server-modules). */
type FindAdminContext = Pick<ServiceContext, 'db' | 'now' | 'config' | 'secrets' | 'jobs' | 'client'>;

/** `jane@example.com` → `j••••@example.com`: the first character, four dots whatever the length, the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '••••';
  return `${[...email.slice(0, at)][0]}••••${email.slice(at)}`;
}

/** The active locations named by one NPI + PTAN + TIN (Part A and Part B may both be enrolled). */
function matchingLocations(db: DbExecutor, { npi, ptan, tin }: { npi: string; ptan: string; tin: string }, now: Date) {
  return db
    .select({ id: providerLocations.id, legalName: providerLocations.legalName })
    .from(providerLocations)
    .where(
      and(
        eq(providerLocations.npi, npi),
        eq(providerLocations.ptan, ptan),
        eq(providerLocations.tin, tin),
        locationInForce(now),
      ),
    );
}

/** The administrators of the locations at `now` (a link in force, db/links.ts; an active account), by name. */
function administratorsOf(db: DbExecutor, locationIds: string[], now: Date) {
  return db
    .selectDistinct({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(userLocations)
    .innerJoin(users, eq(users.id, userLocations.userId))
    .where(
      and(
        eq(userLocations.role, 'administrator'),
        linkInForce(now),
        eq(users.status, 'active'),
        inArray(userLocations.locationId, locationIds),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName));
}

/**
 * The lookup (docs/requirements/portal.md#find-my-administrator): names and masked emails of the location's
 * administrators, and, when there are any, the contact relay's handle. No match is one code whichever identifier was
 * wrong. Throttled per client per day here (per minute by the route).
 */
export async function findAdministrators(
  ctx: FindAdminContext,
  input: z.output<typeof FindAdminRequest>,
): Promise<{ locationName: string; administrators: LocationAdministrator[]; contactToken?: string }> {
  const { db } = ctx;
  const daily = await countAttempt(db, `find-admin-day|${clientKeyOfAddress(ctx.client.ip)}`, DAY_MS);
  if (daily.count > ctx.config.loginHelp.findAdminPerDay)
    throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(daily.ttlMs));
  const { npi, ptan } = input;
  const locations = await matchingLocations(db, input, ctx.now());
  const event = { actor: null, action: 'location.find-admin' } as const;
  if (!locations.length) {
    // The TIN never goes in: the NPI and PTAN are enough to see what was asked.
    await audit(ctx, db, { ...event, outcome: 'failure', details: { reason: 'no_match', npi, ptan } });
    throw new PortalError(404, 'Find_Admin_No_Match');
  }
  const administrators = await administratorsOf(
    db,
    locations.map((l) => l.id),
    ctx.now(),
  );
  await audit(ctx, db, {
    ...event,
    target: locations[0]!.id,
    outcome: 'success',
    details: { npi, ptan, count: administrators.length },
  });
  const expiresAt = new Date(ctx.now().getTime() + FIND_ADMIN_CONTACT_TOKEN_TTL_MS);
  return {
    locationName: locations[0]!.legalName,
    administrators: administrators.map((a) => ({
      firstName: a.firstName,
      lastName: a.lastName,
      maskedEmail: maskEmail(a.email),
    })),
    ...(administrators.length
      ? {
          contactToken: issueSignedLocationToken(
            ctx.secrets.sessionSecret,
            CONTACT_TOKEN_PURPOSE,
            locations[0]!.id,
            expiresAt,
          ),
        }
      : {}),
  };
}

/**
 * How many of a location's daily contact requests one sender (client address, an IPv6 /64) may use: a fifth of the
 * cap, at least one (10 → 2), so it takes five addresses, not two, to spend a location's day
 * (docs/requirements/portal.md#find-my-administrator).
 */
export function senderShareOf(perLocationPerDay: number): number {
  return Math.max(1, Math.floor(perLocationPerDay / 5));
}

/**
 * "Ask this administrator to contact me": the visitor's name, email, phone and message go by email (the outbox) to
 * every active administrator of the location the handle names (and of its sibling enrolment under the same NPI,
 * PTAN and TIN, as the lookup showed). The visitor learns nothing about them: the answer is the same however many
 * were emailed. Limited per client, per client and location (a share of the location's cap) and per location per
 * day; audited without the visitor's words.
 * Answers how many emails were queued (and wakes the outbox sender when any were).
 */
export async function relayContactRequest(
  ctx: FindAdminContext,
  input: z.output<typeof FindAdminContactRequest>,
): Promise<{ queued: number }> {
  const { db } = ctx;
  const { findAdminContactPerClientPerDay: perClientPerDay, findAdminContactPerLocationPerDay: perLocationPerDay } =
    ctx.config.loginHelp;
  const event = { actor: null, action: 'location.find-admin-contact' } as const;
  const locationId = readSignedLocationToken(
    ctx.secrets.sessionSecret,
    CONTACT_TOKEN_PURPOSE,
    input.contactToken,
    ctx.now(),
  );
  if (!locationId) {
    await audit(ctx, db, { ...event, outcome: 'failure', details: { reason: 'token_invalid' } });
    throw new PortalError(400, 'Find_Admin_Contact_Expired');
  }
  const perClient = await countAttempt(db, `find-admin-contact-client|${clientKeyOfAddress(ctx.client.ip)}`, DAY_MS);
  if (perClient.count > perClientPerDay) {
    await audit(ctx, db, { ...event, target: locationId, outcome: 'failure', details: { reason: 'client_limit' } });
    throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(perClient.ttlMs));
  }
  // One sender's share of the location's cap: two or three addresses cannot spend it all.
  const perSender = await countAttempt(
    db,
    `find-admin-contact-sender|${locationId}|${clientKeyOfAddress(ctx.client.ip)}`,
    DAY_MS,
  );
  if (perSender.count > senderShareOf(perLocationPerDay)) {
    await audit(ctx, db, { ...event, target: locationId, outcome: 'failure', details: { reason: 'sender_limit' } });
    throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(perSender.ttlMs));
  }
  const perLocation = await countAttempt(db, `find-admin-contact-location|${locationId}`, DAY_MS);
  if (perLocation.count > perLocationPerDay) {
    await audit(ctx, db, { ...event, target: locationId, outcome: 'failure', details: { reason: 'location_limit' } });
    throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(perLocation.ttlMs));
  }
  const queued = await db.transaction(async (tx) => {
    const [location] = await tx
      .select({
        npi: providerLocations.npi,
        ptan: providerLocations.ptan,
        tin: providerLocations.tin,
        legalName: providerLocations.legalName,
      })
      .from(providerLocations)
      .where(and(eq(providerLocations.id, locationId), locationInForce(ctx.now())));
    const siblings = location ? await matchingLocations(tx, location, ctx.now()) : [];
    const administrators = siblings.length
      ? await administratorsOf(
          tx,
          siblings.map((l) => l.id),
          ctx.now(),
        )
      : [];
    for (const admin of administrators)
      await enqueueEmail(tx, {
        to: admin.email,
        template: 'find-admin-contact-request',
        data: {
          firstName: admin.firstName,
          legalName: location!.legalName,
          npi: location!.npi,
          ptan: location!.ptan,
          name: input.name,
          email: input.email,
          phone: input.phone,
          message: input.message,
        },
      });
    await audit(ctx, tx, {
      ...event,
      target: locationId,
      outcome: 'success',
      details: { count: administrators.length, ...(location ? { npi: location.npi, ptan: location.ptan } : {}) },
    });
    return administrators.length;
  });
  if (queued) ctx.jobs.kick(OUTBOX_JOB);
  return { queued };
}
