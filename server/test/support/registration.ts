import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { auditEvents } from '../../src/db/schema';
import { portalHeaders } from '../helpers';

/**
 * The registration forms' test fixture, shared by the administrator's self-registration (registration.test.ts) and
 * the end user's registration (access-requests.test.ts): the account step's fields as the browser sends them and the
 * form's POST. Locations, client addresses and the verification email come from the factories (../factories).
 */

/** A form's POST as the web app sends it (same-origin SPA headers), from the client address `ip`. */
export function postForm(app: FastifyInstance, url: string, payload: unknown, ip: string) {
  return app.inject({ method: 'POST', url, remoteAddress: ip, headers: portalHeaders, payload: payload as object });
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
