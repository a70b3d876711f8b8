import {
  REGISTRATION_TOKEN_TTL_MS,
  VALIDATION_TOKEN_TTL_MS,
  type LocationSummary,
  type ValidateAuthorityRequest,
  type ValidateProviderRequest,
} from '@portal/contracts/registration';
import { maskTin } from '@portal/contracts/identifiers';
import type { z } from 'zod/mini';
import { and, eq, gte, lte } from 'drizzle-orm';
import { activeLocationByIdentifiers, locationIsInForce } from '../../db/locations';
import { claims, providerLocations } from '../../db/schema';
import type { AuditDetails } from '../../platform/audit';
import { issueLocationToken } from '../../identity/one-time-tokens';
import { PortalError } from '../../platform/portal-error';
import { clientKey, countAttempt, peekAttempts, resetAttempts, retryAfterHeader } from '../../platform/rate-limit';
import { audit, type ServiceContext } from '../../identity/service-context';
import { hasAdministrator, lockLocation } from './locations';
import { issueValidationToken, readValidationToken } from './validation-token';

/**
 * Registration steps 1 and 2: the provider's identifiers (NPI, PTAN, TIN) find one location, then a claim of that
 * location proves the person's authority, under a per-location lock against guessing
 * (docs/requirements/portal.md#provider-validation, #authority-validation; docs/decisions/0025).
 */

type ProviderInput = z.output<typeof ValidateProviderRequest>;
type AuthorityInput = z.output<typeof ValidateAuthorityRequest>;

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function daysBefore(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return isoDay(d);
}

// ---------------------------------------------------------------------------------------------------------------
// Step 1

export async function validateProvider(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'secrets' | 'client'>,
  input: ProviderInput,
): Promise<{ validationToken: string; expiresAt: string; location: LocationSummary }> {
  const { db } = ctx;
  const details: AuditDetails = { npi: input.npi, ptan: input.ptan };
  const location = await activeLocationByIdentifiers(db, input, ctx.now());
  if (!location) {
    await audit(ctx, db, {
      actor: null,
      action: 'registration.provider',
      outcome: 'failure',
      details: { ...details, reason: 'no_match' },
    });
    // One code whichever identifier was wrong.
    throw new PortalError(400, 'Provider_Not_Found');
  }
  if (await hasAdministrator(db, location.id)) {
    await audit(ctx, db, {
      actor: null,
      action: 'registration.provider',
      target: location.id,
      outcome: 'failure',
      details: { ...details, locationId: location.id, reason: 'has_administrator' },
    });
    throw new PortalError(409, 'Location_Has_Administrator');
  }
  const expiresAt = new Date(ctx.now().getTime() + VALIDATION_TOKEN_TTL_MS);
  await audit(ctx, db, {
    actor: null,
    action: 'registration.provider',
    target: location.id,
    outcome: 'success',
    details: { ...details, locationId: location.id },
  });
  return {
    validationToken: issueValidationToken(ctx.secrets.sessionSecret, location.id, expiresAt),
    expiresAt: expiresAt.toISOString(),
    location: {
      legalName: location.legalName,
      jurisdiction: location.jurisdiction,
      lineOfBusiness: location.lineOfBusiness,
      maskedTin: maskTin(location.tin),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Step 2

const locationFailuresKey = (locationId: string) => `authority-failures|location:${locationId}`;
const locationLockKey = (locationId: string) => `authority-lock|location:${locationId}`;
const clientFailuresKey = (client: ServiceContext['client']) => `authority-failures|client:${clientKey(client)}`;

/** The claim facts that prove authority, per `financialLookupSelector`. */
function proofCondition(input: AuthorityInput) {
  switch (input.financialLookupSelector) {
    case 'patient':
      return and(eq(claims.patientMbi, input.patientMbi), eq(claims.dateOfService, input.dateOfService));
    case 'check':
      return eq(claims.checkNumber, input.checkNumber);
    case 'claim':
      return eq(claims.claimNumber, input.claimNumber);
  }
}

/** Answers the registration token of the location whose authority the claim proves. */
export async function validateAuthority(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config' | 'secrets' | 'client'>,
  input: AuthorityInput,
): Promise<string> {
  const { db } = ctx;
  const settings = ctx.config.registration;
  const now = ctx.now();
  const reason = `proof_${input.financialLookupSelector}`;

  const locationId = readValidationToken(ctx.secrets.sessionSecret, input.validationToken, now);
  const [location] = locationId
    ? await db.select().from(providerLocations).where(eq(providerLocations.id, locationId))
    : [];
  if (!location || location.npi !== input.npi || !locationIsInForce(location, now)) {
    await audit(ctx, db, {
      actor: null,
      action: 'registration.authority',
      outcome: 'failure',
      details: { npi: input.npi, reason: 'bad_validation_token' },
    });
    throw new PortalError(400, 'Validation_Token_Invalid');
  }
  const details: AuditDetails = { npi: location.npi, ptan: location.ptan, locationId: location.id };
  const target = location.id;

  // One attempt on a location is decided at a time: its lock, the proof and the count are read and written in one
  // transaction under the location's row lock, so a burst of parallel guesses (several instances, a pool of
  // connections) gets no more verdicts than the limit allows. Attempts on other locations never wait for it.
  type Decision = { token: string } | { error: PortalError; refusal?: string };
  const decided = await db.transaction(async (tx): Promise<Decision> => {
    await lockLocation(tx, location.id);
    const lock = await peekAttempts(tx, locationLockKey(location.id));
    if (lock.count > 0)
      return {
        refusal: 'locked',
        error: new PortalError(429, 'Authority_Locked', undefined, retryAfterHeader(lock.ttlMs)),
      };
    const client = await peekAttempts(tx, clientFailuresKey(ctx.client));
    if (client.count >= settings.authorityClientMaxFailures)
      return {
        refusal: 'client_limit',
        error: new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(client.ttlMs)),
      };
    if (await hasAdministrator(tx, location.id))
      return { refusal: 'has_administrator', error: new PortalError(409, 'Location_Has_Administrator') };

    // Paid within the lookback: day N counts, day N + 1 does not (dates are UTC days).
    const today = isoDay(now);
    const [proof] = await tx
      .select({ id: claims.id })
      .from(claims)
      .where(
        and(
          eq(claims.locationId, location.id),
          gte(claims.paidDate, daysBefore(today, settings.lookbackDays)),
          lte(claims.paidDate, today),
          proofCondition(input),
        ),
      )
      .limit(1);

    if (!proof) {
      const windowMs = settings.authorityLockMs;
      await countAttempt(tx, clientFailuresKey(ctx.client), 60 * 60_000);
      const failures = await countAttempt(tx, locationFailuresKey(location.id), windowMs);
      const locking = failures.count >= settings.authorityMaxFailures;
      await audit(ctx, tx, {
        actor: null,
        action: 'registration.authority',
        target,
        outcome: 'failure',
        details: { ...details, reason, count: failures.count },
      });
      if (!locking) return { error: new PortalError(400, 'Authority_Not_Verified') };
      await countAttempt(tx, locationLockKey(location.id), windowMs);
      await resetAttempts(tx, locationFailuresKey(location.id));
      await audit(ctx, tx, {
        actor: 'system',
        action: 'registration.authority.locked',
        target,
        outcome: 'success',
        details: { ...details, until: new Date(now.getTime() + windowMs).toISOString() },
      });
      return { error: new PortalError(429, 'Authority_Locked', undefined, retryAfterHeader(windowMs)) };
    }

    await resetAttempts(tx, locationFailuresKey(location.id));
    const token = await issueLocationToken(tx, {
      locationId: location.id,
      purpose: 'registration',
      ttlMs: REGISTRATION_TOKEN_TTL_MS,
      now,
    });
    await audit(ctx, tx, {
      actor: null,
      action: 'registration.authority',
      target,
      outcome: 'success',
      details: { ...details, reason },
    });
    return { token };
  });
  if ('token' in decided) return decided.token;
  // A refusal before the proof was looked at: audited with its reason, outside the transaction.
  if (decided.refusal)
    await audit(ctx, db, {
      actor: null,
      action: 'registration.authority',
      target,
      outcome: 'failure',
      details: { ...details, reason: decided.refusal },
    });
  throw decided.error;
}
