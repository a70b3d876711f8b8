import { npiCheckDigit } from '@portal/contracts/identifiers';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { auditEvents, outbox, providerLocations } from '../../src/db/schema';
import { portalHeaders } from '../helpers';

/**
 * The registration forms' test fixture, shared by the administrator's self-registration (registration.test.ts) and
 * the end user's registration (access-requests.test.ts): provider locations the provider step finds, the account
 * step's fields as the browser sends them, calls from a client address of their own, and the verification email's
 * link. Each test file gets its own copy of the counters (its own app and database).
 */

/** Client addresses `10.<block>.x.y`, a new one per call: one test's per-client limits never touch another's. */
export function clientAddresses(block: number): () => string {
  let counter = 0;
  return () => {
    counter++;
    return `10.${block}.${Math.floor(counter / 250)}.${counter % 250}`;
  };
}

/** A form's POST as the web app sends it (same-origin SPA headers), from the client address `ip`. */
export function postForm(app: FastifyInstance, url: string, payload: unknown, ip: string) {
  return app.inject({ method: 'POST', url, remoteAddress: ip, headers: portalHeaders, payload: payload as object });
}

/** A provider location as the provider step names it (the TIN stored without its dash). */
export interface RegistrableLocation {
  id: string;
  npi: string;
  ptan: string;
  tin: string;
  legalName: string;
  jurisdiction: 'J5' | 'J8';
  lineOfBusiness: 'A' | 'B';
}

let locationSerial = 100_000_000;

/**
 * A J5 Part B provider location with identifiers of its own: an NPI with a valid check digit, a PTAN and a TIN made
 * from the same serial, and the legal name `Clinic <serial>`.
 */
export async function createRegistrableLocation(
  app: FastifyInstance,
  status: 'active' | 'inactive' = 'active',
): Promise<RegistrableLocation> {
  const first9 = String(++locationSerial);
  const location = {
    npi: `${first9}${npiCheckDigit(first9)}`,
    ptan: `P${first9.slice(-7)}`,
    tin: `98${first9.slice(-7)}`,
    legalName: `Clinic ${first9}`,
    jurisdiction: 'J5',
    lineOfBusiness: 'B',
  } as const;
  const [row] = await app.database.db
    .insert(providerLocations)
    .values({ ...location, state: 'IA', addressLine1: '1 Main St', city: 'Ames', zip: '50010', status })
    .returning({ id: providerLocations.id });
  return { id: row!.id, ...location };
}

/** The location's identifiers as the forms send them: the TIN typed with its dash. */
export function locationIdentifiers(l: RegistrableLocation) {
  return {
    npi: l.npi,
    ptan: l.ptan,
    tin: `${l.tin.slice(0, 2)}-${l.tin.slice(2)}`,
    jurisdiction: l.jurisdiction,
    lineOfBusiness: l.lineOfBusiness,
  };
}

/** Who fills in the account step: their facts, the password and the three security answers. */
export interface Registrant {
  firstName: string;
  lastName: string;
  phone: string;
  dob: string;
  password: string;
  answers: { 'first-car': string; 'first-school': string; 'childhood-nickname': string };
}

let accountSerial = 0;

/**
 * The account step's fields for `person`, with an email address and a username of their own (`robin3@example.org`,
 * `robin.q3`); the email typed again with other capitals, as the confirmation may be. `overrides` replace any field
 * or add the form's own (the registration token, the locations).
 */
export function accountFields(person: Registrant, overrides: Record<string, unknown> = {}) {
  const n = ++accountSerial;
  const first = person.firstName.toLowerCase();
  return {
    firstName: person.firstName,
    lastName: person.lastName,
    email: `${first}${n}@example.org`,
    emailConfirmation: `${person.firstName}${n}@example.org`,
    phone: person.phone,
    dob: person.dob,
    username: `${first}.${person.lastName.charAt(0).toLowerCase()}${n}`,
    password: person.password,
    securityQuestions: Object.entries(person.answers).map(([questionId, answer]) => ({ questionId, answer })),
    ...overrides,
  };
}

/** The token of the newest verification link emailed to `email`. */
export async function verificationToken(app: FastifyInstance, email: string): Promise<string> {
  const [mail] = await app.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, email), eq(outbox.template, 'verify-email')))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return (mail!.data as { token: string }).token;
}

/** Nothing personal (`secrets`: a date of birth, answers, the password, a TIN) in the audit trail or the logs. */
export async function expectNothingPersonalKept(app: FastifyInstance, logLines: string[], secrets: string[]) {
  const audit = JSON.stringify(await app.database.db.select().from(auditEvents));
  const logs = logLines.join('\n');
  for (const secret of secrets) for (const text of [audit, logs]) expect(text, secret).not.toContain(secret);
}

/** Makes the account `username` registered `age` ago (a PostgreSQL interval, e.g. `72 hours 1 minute`). */
export async function registeredAgo(app: FastifyInstance, username: string, age: string): Promise<void> {
  await app.database.db.execute(
    sql`update users set created_at = now() - ${age}::interval where username = ${username}`,
  );
}
