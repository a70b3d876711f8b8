import { createHash } from 'node:crypto';
import {
  EMAIL_VERIFY_TTL_MS,
  REGISTRATION_TOKEN_TTL_MS,
  VALIDATION_TOKEN_TTL_MS,
  type LocationSummary,
} from '@portal/contracts/registration';
import { emailKey } from '@portal/contracts/fields';
import { maskTin } from '@portal/contracts/identifiers';
import type { z } from 'zod/mini';
import type {
  SelfRegistrationRequest,
  ValidateAuthorityRequest,
  ValidateProviderRequest,
} from '@portal/contracts/registration';
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { claims, oneTimeTokens, providerLocations, securityAnswers, userLocations, users } from '../../db/schema';
import { recordAudit, type AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import {
  peekLocationToken,
  consumeLocationToken,
  consumeOneTimeToken,
  issueLocationToken,
  issueOneTimeToken,
  usedOneTimeTokenUser,
} from '../../platform/one-time-tokens';
import { passwordProblems, rememberPassword } from '../../platform/password-hashing';
import { PortalError } from '../../platform/portal-error';
import { clientKey, countAttempt, peekAttempts, resetAttempts, retryAfterHeader } from '../../platform/rate-limit';
import { hashSecurityAnswer } from '../../platform/security-answers';
import { issueValidationToken, readValidationToken } from './validation-token';

/**
 * Administrator registration (docs/requirements/portal.md#provider-validation, #authority-validation,
 * #administrator-self-registration, #email-verification; docs/decisions/0025).
 */

type ProviderInput = z.output<typeof ValidateProviderRequest>;
type AuthorityInput = z.output<typeof ValidateAuthorityRequest>;
type RegistrationInput = z.output<typeof SelfRegistrationRequest>;

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function daysBefore(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return isoDay(d);
}

/** Requests whose attempt the service has audited; the routes audit the others (schema, rate limit, CSRF failures). */
export const auditedRequests = new WeakSet<FastifyRequest>();

function audit(
  request: FastifyRequest,
  db: DbExecutor,
  event: {
    actor?: string | null;
    action: string;
    target?: string | null;
    outcome: 'success' | 'failure';
    details?: AuditDetails;
  },
) {
  auditedRequests.add(request);
  return recordAudit(db, { actor: null, ...event, ip: request.ip, requestId: request.id });
}

/** Whether the location already has an administrator (a pending registration holds it too, until it expires). */
async function hasAdministrator(db: DbExecutor, locationId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: userLocations.userId })
    .from(userLocations)
    .where(and(eq(userLocations.locationId, locationId), eq(userLocations.role, 'administrator')))
    .limit(1);
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Step 1

export async function validateProvider(
  request: FastifyRequest,
  input: ProviderInput,
): Promise<{ validationToken: string; expiresAt: string; location: LocationSummary }> {
  const { db } = request.server.database;
  const details: AuditDetails = { npi: input.npi, ptan: input.ptan };
  // The unique (npi, ptan, line of business) index answers this with one index probe, whatever the table size.
  const [location] = await db
    .select()
    .from(providerLocations)
    .where(
      and(
        eq(providerLocations.npi, input.npi),
        eq(providerLocations.ptan, input.ptan),
        eq(providerLocations.lineOfBusiness, input.lineOfBusiness),
        eq(providerLocations.tin, input.tin),
        eq(providerLocations.jurisdiction, input.jurisdiction),
        eq(providerLocations.status, 'active'),
      ),
    )
    .limit(2);
  if (!location) {
    await audit(request, db, {
      action: 'registration.provider',
      outcome: 'failure',
      details: { ...details, reason: 'no_match' },
    });
    // One code whichever identifier was wrong.
    throw new PortalError(400, 'Provider_Not_Found');
  }
  if (await hasAdministrator(db, location.id)) {
    await audit(request, db, {
      action: 'registration.provider',
      target: location.id,
      outcome: 'failure',
      details: { ...details, locationId: location.id, reason: 'has_administrator' },
    });
    throw new PortalError(409, 'Location_Has_Administrator');
  }
  const expiresAt = new Date(request.server.clock().getTime() + VALIDATION_TOKEN_TTL_MS);
  await audit(request, db, {
    action: 'registration.provider',
    target: location.id,
    outcome: 'success',
    details: { ...details, locationId: location.id },
  });
  return {
    validationToken: issueValidationToken(request.server.secrets.sessionSecret, location.id, expiresAt),
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
const clientFailuresKey = (request: Pick<FastifyRequest, 'ip'>) => `authority-failures|client:${clientKey(request)}`;

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

export async function validateAuthority(request: FastifyRequest, input: AuthorityInput): Promise<string> {
  const { config, database, secrets } = request.server;
  const { db } = database;
  const settings = config.registration;
  const now = request.server.clock();
  const reason = `proof_${input.financialLookupSelector}`;

  const locationId = readValidationToken(secrets.sessionSecret, input.validationToken, now);
  const [location] = locationId
    ? await db.select().from(providerLocations).where(eq(providerLocations.id, locationId))
    : [];
  if (!location || location.npi !== input.npi || location.status !== 'active') {
    await audit(request, db, {
      action: 'registration.authority',
      outcome: 'failure',
      details: { npi: input.npi, reason: 'bad_validation_token' },
    });
    throw new PortalError(400, 'Validation_Token_Invalid');
  }
  const details: AuditDetails = { npi: location.npi, ptan: location.ptan, locationId: location.id };
  const target = location.id;
  /** A refusal before the proof is looked at: audited with its reason; answers the error to throw. */
  const refused = async (refusal: string, error: PortalError) => {
    await audit(request, db, {
      action: 'registration.authority',
      target,
      outcome: 'failure',
      details: { ...details, reason: refusal },
    });
    return error;
  };

  // One attempt on a location is decided at a time: its lock, the proof and the count are read and written in one
  // transaction under the location's row lock, so a burst of parallel guesses (several instances, a pool of
  // connections) gets no more verdicts than the limit allows. Attempts on other locations never wait for it.
  type Decision = { token: string } | { error: PortalError; refusal?: string };
  const decided = await db.transaction(async (tx): Promise<Decision> => {
    await tx.execute(sql`select id from provider_locations where id = ${location.id} for update`);
    const lock = await peekAttempts(tx, locationLockKey(location.id));
    if (lock.count > 0)
      return {
        refusal: 'locked',
        error: new PortalError(429, 'Authority_Locked', undefined, retryAfterHeader(lock.ttlMs)),
      };
    const client = await peekAttempts(tx, clientFailuresKey(request));
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
      await countAttempt(tx, clientFailuresKey(request), 60 * 60_000);
      const failures = await countAttempt(tx, locationFailuresKey(location.id), windowMs);
      const locking = failures.count >= settings.authorityMaxFailures;
      await audit(request, tx, {
        action: 'registration.authority',
        target,
        outcome: 'failure',
        details: { ...details, reason, count: failures.count },
      });
      if (!locking) return { error: new PortalError(400, 'Authority_Not_Verified') };
      await countAttempt(tx, locationLockKey(location.id), windowMs);
      await resetAttempts(tx, locationFailuresKey(location.id));
      await audit(request, tx, {
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
    await audit(request, tx, {
      action: 'registration.authority',
      target,
      outcome: 'success',
      details: { ...details, reason },
    });
    return { token };
  });
  if ('token' in decided) return decided.token;
  if (decided.refusal) throw await refused(decided.refusal, decided.error);
  throw decided.error;
}

// ---------------------------------------------------------------------------------------------------------------
// Step 3

const USERNAME_UNIQUE_INDEX = 'users_username_lower_key';

function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505' && (e.constraint === constraint || e.constraint === undefined)) return true;
  }
  return false;
}

async function usernameTaken(db: DbExecutor, username: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

/** A username someone already has: the refusal is audited; answers 409 `Username_Taken` (shown next to the field). */
async function usernameTakenRefusal(request: FastifyRequest, db: DbExecutor, username: string) {
  await audit(request, db, {
    action: 'registration.submit',
    target: username,
    outcome: 'failure',
    details: { reason: 'username_taken' },
  });
  return new PortalError(409, 'Username_Taken', { username: ['Username_Taken'] });
}

export async function registerAdministrator(request: FastifyRequest, input: RegistrationInput): Promise<void> {
  const { config, database, passwordHasher } = request.server;
  const { db } = database;
  const now = request.server.clock();

  const problems = passwordProblems(input.password, [input.firstName, input.lastName, input.username, input.email]);
  if (problems.length) throw new PortalError(400, 'Validation_Failed', { password: problems });

  if (await usernameTaken(db, input.username)) throw await usernameTakenRefusal(request, db, input.username);

  // A token that cannot be used costs no hashing (the transaction below still decides, atomically).
  if (!(await peekLocationToken(db, { token: input.registrationToken, purpose: 'registration', now }))) {
    await audit(request, db, {
      action: 'registration.submit',
      target: input.username,
      outcome: 'failure',
      details: { reason: 'registration_token_invalid' },
    });
    throw new PortalError(400, 'Registration_Token_Invalid');
  }

  // The expensive hashing happens before the transaction (in the hasher's threads), so no row is locked while it runs.
  const [passwordHash, ...answerHashes] = await Promise.all([
    passwordHasher.hash(input.password),
    ...input.securityQuestions.map((q) => hashSecurityAnswer(q.answer, passwordHasher)),
  ]);

  let outcome: { userId: string; locationId: string };
  try {
    outcome = await db.transaction(async (tx) => {
      const token = await consumeLocationToken(tx, { token: input.registrationToken, purpose: 'registration', now });
      if (!token) throw new PortalError(400, 'Registration_Token_Invalid');
      // The location's row lock serialises registrations for it: the second waits, then sees the first's link.
      await tx.execute(sql`select id from provider_locations where id = ${token.locationId} for update`);
      if (await hasAdministrator(tx, token.locationId)) throw new PortalError(409, 'Location_Has_Administrator');

      const [existing] = await tx
        .select({ firstName: users.firstName })
        .from(users)
        .where(eq(sql`lower(${users.email})`, emailKey(input.email)))
        .limit(1);

      const [user] = await tx
        .insert(users)
        .values({
          username: input.username,
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone,
          dob: input.dob,
          passwordHash: passwordHash!,
          status: 'pending',
          passwordChangedAt: now,
        })
        .returning({ id: users.id });
      const userId = user!.id;
      await rememberPassword(tx, userId, passwordHash!, config.passwords.historyCount);
      await tx
        .insert(securityAnswers)
        .values(
          input.securityQuestions.map((q, i) => ({ userId, questionId: q.questionId, answerHash: answerHashes[i]! })),
        );
      await tx.insert(userLocations).values({ userId, locationId: token.locationId, role: 'administrator' });

      if (existing) {
        // The address already has an account: the same answer and the same rows as a new registration (the pending
        // account expires unverified), but the address gets a notice instead of a verification link.
        await enqueueEmail(tx, {
          to: input.email,
          template: 'registration-email-in-use',
          data: { firstName: existing.firstName },
        });
      } else {
        const verifyToken = await issueOneTimeToken(tx, {
          userId,
          purpose: 'email-verify',
          ttlMs: EMAIL_VERIFY_TTL_MS,
          now,
        });
        await enqueueEmail(tx, {
          to: input.email,
          template: 'verify-email',
          data: { firstName: input.firstName, token: verifyToken },
        });
      }
      await audit(request, tx, {
        actor: userId,
        action: 'registration.submit',
        target: userId,
        outcome: 'success',
        details: { locationId: token.locationId },
      });
      return { userId, locationId: token.locationId };
    });
  } catch (err) {
    if (err instanceof PortalError) {
      await audit(request, db, {
        action: 'registration.submit',
        target: input.username,
        outcome: 'failure',
        details: { reason: err.code.toLowerCase() },
      });
      throw err;
    }
    // Two registrations choosing one username at the same moment: the unique index decides.
    if (isUniqueViolation(err, USERNAME_UNIQUE_INDEX)) throw await usernameTakenRefusal(request, db, input.username);
    throw err;
  }
  request.log.info(
    { userId: outcome.userId, locationId: outcome.locationId },
    'administrator registered (pending verification)',
  );
  request.server.jobs.kick(OUTBOX_JOB);
}

// ---------------------------------------------------------------------------------------------------------------
// Email verification

export async function verifyEmail(request: FastifyRequest, token: string): Promise<void> {
  const { db } = request.server.database;
  const now = request.server.clock();
  const userId = await db.transaction(async (tx) => {
    const used = await consumeOneTimeToken(tx, { token, purpose: 'email-verify', now });
    if (!used) return null;
    await tx
      .update(users)
      .set({ status: 'active' })
      .where(and(eq(users.id, used.userId), eq(users.status, 'pending')));
    await audit(request, tx, {
      actor: used.userId,
      action: 'registration.verify-email',
      target: used.userId,
      outcome: 'success',
      details: { method: 'email_link' },
    });
    return used.userId;
  });
  if (!userId) {
    // A link already used on an account that is now active: say it is verified (and offer the login), not "invalid".
    const usedBy = await usedOneTimeTokenUser(db, { token, purpose: 'email-verify' });
    const [owner] = usedBy ? await db.select({ status: users.status }).from(users).where(eq(users.id, usedBy)) : [];
    if (owner && owner.status !== 'pending') {
      await audit(request, db, {
        actor: usedBy,
        action: 'registration.verify-email',
        target: usedBy,
        outcome: 'failure',
        details: { reason: 'already_verified' },
      });
      throw new PortalError(400, 'Email_Already_Verified');
    }
    await audit(request, db, {
      action: 'registration.verify-email',
      outcome: 'failure',
      details: { reason: 'invalid_token' },
    });
    throw new PortalError(400, 'Verification_Link_Invalid');
  }
}

/** Verification emails per address and hour; beyond it the answer stays the same and nothing is sent. */
export const RESENDS_PER_ADDRESS_PER_HOUR = 3;

export async function resendVerification(request: FastifyRequest, email: string): Promise<void> {
  const { db } = request.server.database;
  const now = request.server.clock();
  const address = emailKey(email);
  // Keyed by a hash: the counter table holds no address, and a 254-character address fits its key.
  const sent = await countAttempt(
    db,
    `verify-resend|email:${createHash('sha256').update(address).digest('hex')}`,
    60 * 60_000,
  );
  let queued = false;
  if (sent.count <= RESENDS_PER_ADDRESS_PER_HOUR) {
    queued = await db.transaction(async (tx) => {
      const pending = await tx
        .select({ id: users.id, firstName: users.firstName, email: users.email })
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, address), eq(users.status, 'pending')));
      // Only a pending account whose own registration asked for a link (not one made with an address in use).
      let any = false;
      for (const user of pending) {
        const [holder] = await tx
          .select({ id: oneTimeTokens.id })
          .from(oneTimeTokens)
          .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'email-verify')))
          .limit(1);
        if (!holder) continue;
        const token = await issueOneTimeToken(tx, {
          userId: user.id,
          purpose: 'email-verify',
          ttlMs: EMAIL_VERIFY_TTL_MS,
          now,
        });
        await enqueueEmail(tx, {
          to: user.email,
          template: 'verify-email',
          data: { firstName: user.firstName, token },
        });
        any = true;
      }
      return any;
    });
  }
  await audit(request, db, {
    action: 'registration.verify-email.resend',
    outcome: 'success',
    details: {
      reason: queued ? 'sent' : sent.count > RESENDS_PER_ADDRESS_PER_HOUR ? 'address_limit' : 'no_pending_account',
    },
  });
  if (queued) request.server.jobs.kick(OUTBOX_JOB);
}
