import { errorDefaultMessages } from '@portal/contracts/errors';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  auditEvents,
  claims,
  oneTimeTokens,
  passwordHistory,
  securityAnswers,
  userLocations,
  users,
} from '../src/db/schema';
import { REGISTRATION_EXPIRY_JOB } from '../src/modules/registration/jobs';
import { rowsOf } from '../src/platform/db-executor';
import { hashOneTimeToken } from '../src/identity/one-time-tokens';
import { PortalError } from '../src/platform/portal-error';
import { verifySecurityAnswer } from '../src/identity/security-answers';
import { buildTestApp, portalHeaders, testConfig } from './helpers';
import { accountFields, expectNothingPersonalKept, postForm, registeredAgo } from './support/registration';
import {
  createLocation,
  locationIdentifiers,
  newIp,
  verificationToken,
  type Location,
  queuedEmails,
} from './factories';

const MINUTE = 60_000;
const START = Date.parse('2026-11-23T12:00:00Z');
let now = START;
const clock = () => new Date(now);

const daysAgo = (days: number) => new Date(START - days * 86_400_000).toISOString().slice(0, 10);

/** A location the provider step finds, with claims its authority step can prove. */
interface Fixture extends Location {
  /** Claim paid exactly 90 days ago (counts) and 91 days ago (does not). */
  day90: { claimNumber: string; patientMbi: string; dateOfService: string; checkNumber: string };
  day91: { claimNumber: string; patientMbi: string; dateOfService: string; checkNumber: string };
}

let claimSerial = 0;
async function locationWithClaims(app: FastifyInstance, status: 'active' | 'inactive' = 'active'): Promise<Fixture> {
  const location = await createLocation(app, { status });
  const claim = (days: number) => {
    claimSerial++;
    return {
      claimNumber: `${String(claimSerial).padStart(13, '0')}`,
      patientMbi: `1EG4TE5MK${String(claimSerial % 100).padStart(2, '0')}`,
      dateOfService: daysAgo(days + 10),
      checkNumber: `EFT${String(claimSerial).padStart(9, '0')}`,
    };
  };
  const day90 = claim(90);
  const day91 = claim(91);
  await app.database.db.insert(claims).values([
    { locationId: location.id, ...day90, paidAmount: '100.00', paidDate: daysAgo(90) },
    { locationId: location.id, ...day91, paidAmount: '100.00', paidDate: daysAgo(91) },
  ]);
  return { ...location, day90, day91 };
}

const post = (app: FastifyInstance, url: string, payload: unknown, ip = newIp()) => postForm(app, url, payload, ip);

const providerBody = (l: Fixture) => ({ ...locationIdentifiers(l), passthroughResponse: true });

async function validationToken(app: FastifyInstance, l: Fixture): Promise<string> {
  const res = await post(app, REGISTRATION_ROUTES.validateProvider, providerBody(l));
  expect(res.statusCode).toBe(200);
  return res.json().data.validationToken as string;
}

async function registrationToken(app: FastifyInstance, l: Fixture): Promise<string> {
  const res = await post(app, REGISTRATION_ROUTES.validateAuthority, {
    npi: l.npi,
    validationToken: await validationToken(app, l),
    financialLookupSelector: 'claim',
    claimNumber: l.day90.claimNumber,
    passthroughResponse: true,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.registrationToken as string;
}

/** The administrator who registers in these tests. */
const ROBIN = {
  firstName: 'Robin',
  lastName: 'Quill',
  phone: '(410) 555-0123',
  dob: '1975-06-15',
  password: 'violet tugboat ember 42 prairie',
  answers: { 'first-car': ' Blue  Honda ', 'first-school': 'Lincoln', 'childhood-nickname': 'Bee' },
};

const registrationBody = (token: string, overrides: Record<string, unknown> = {}) =>
  accountFields(ROBIN, { registrationToken: token, ...overrides });

const sentence = (code: keyof typeof errorDefaultMessages) => errorDefaultMessages[code];

describe('administrator registration', () => {
  let app: FastifyInstance;
  let logLines: string[];

  beforeAll(async () => {
    ({ app, logLines } = await buildTestApp({
      clock,
      config: testConfig({ AUTHORITY_CLIENT_MAX_FAILURES: '8', PASSWORD_HASH_MEMORY_KIB: '19456' }),
    }));
  });
  afterAll(() => app.close());

  describe('POST /api/locations/validate/provider', () => {
    it('matches one active location and answers its summary with a masked TIN and a validation token', async () => {
      const l = await locationWithClaims(app);
      const res = await post(app, REGISTRATION_ROUTES.validateProvider, providerBody(l));
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data).toMatchObject({
        success: true,
        location: {
          legalName: l.legalName,
          jurisdiction: 'J5',
          lineOfBusiness: 'B',
          maskedTin: `*****${l.tin.slice(-4)}`,
        },
      });
      expect(data.validationToken).toEqual(expect.any(String));
      expect(res.body).not.toContain(l.tin);
      // Without passthroughResponse the token comes alone.
      const bare = await post(app, REGISTRATION_ROUTES.validateProvider, {
        ...providerBody(l),
        passthroughResponse: false,
      });
      expect(bare.json().data.location).toBeUndefined();
    });

    it('answers one code whichever identifier is wrong, and for an inactive location', async () => {
      const l = await locationWithClaims(app);
      const other = await locationWithClaims(app);
      const inactive = await locationWithClaims(app, 'inactive');
      const wrong = [
        { ...providerBody(l), npi: other.npi },
        { ...providerBody(l), ptan: other.ptan },
        { ...providerBody(l), tin: other.tin },
        { ...providerBody(l), jurisdiction: 'J8' },
        { ...providerBody(l), lineOfBusiness: 'A' },
        providerBody(inactive),
      ];
      for (const body of wrong) {
        const res = await post(app, REGISTRATION_ROUTES.validateProvider, body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ errorMessage: 'Provider_Not_Found' });
      }
    });

    it('points to find-my-administrator when the location already has one', async () => {
      const l = await locationWithClaims(app);
      await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(await registrationToken(app, l)));
      const res = await post(app, REGISTRATION_ROUTES.validateProvider, providerBody(l));
      expect(res.statusCode).toBe(409);
      expect(res.json().errorMessage).toBe('Location_Has_Administrator');
    });

    it('rejects bad identifiers and unknown fields with 400 and field errors', async () => {
      const l = await locationWithClaims(app);
      const badNpi = await post(app, REGISTRATION_ROUTES.validateProvider, { ...providerBody(l), npi: '1234567890' });
      expect(badNpi.statusCode).toBe(400);
      expect(badNpi.json().fieldErrors.npi).toEqual(['This NPI is not valid. Check the 10 digits and try again.']);
      const extra = await post(app, REGISTRATION_ROUTES.validateProvider, { ...providerBody(l), admin: true });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().errorMessage).toBe('Validation_Failed');
    });

    it('audits refused attempts too (bad input), with the error code only', async () => {
      const ip = newIp();
      await post(app, REGISTRATION_ROUTES.validateProvider, { npi: '1', tin: '123456789' }, ip);
      await vi.waitFor(async () => {
        const rows = await app.database.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.action, 'registration.provider'), eq(auditEvents.ip, ip)));
        expect(rows).toEqual([
          expect.objectContaining({ outcome: 'failure', details: { reason: 'Validation_Failed' } }),
        ]);
      });
    });

    it('writes one audit event for a refusal the service audited, not a second generic one', async () => {
      const ip = newIp();
      const l = await locationWithClaims(app);
      const res = await post(app, REGISTRATION_ROUTES.validateProvider, { ...providerBody(l), ptan: 'P0000000' }, ip);
      expect(res.statusCode).toBe(400);
      // The gap-filling hook runs after the answer: give it the time to (wrongly) write.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const rows = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'registration.provider'), eq(auditEvents.ip, ip)));
      expect(rows).toEqual([
        expect.objectContaining({ outcome: 'failure', details: expect.objectContaining({ reason: 'no_match' }) }),
      ]);
    });

    it('is rate limited per client', async () => {
      const l = await locationWithClaims(app);
      const ip = newIp();
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++)
        statuses.push((await post(app, REGISTRATION_ROUTES.validateProvider, providerBody(l), ip)).statusCode);
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
      // Another client is not affected.
      expect((await post(app, REGISTRATION_ROUTES.validateProvider, providerBody(l))).statusCode).toBe(200);
    });
  });

  describe('POST /api/locations/validate/authority', () => {
    const authority = async (l: Fixture, facts: Record<string, unknown>, ip?: string, token?: string) =>
      post(
        app,
        REGISTRATION_ROUTES.validateAuthority,
        { npi: l.npi, validationToken: token ?? (await validationToken(app, l)), passthroughResponse: true, ...facts },
        ip,
      );

    it('accepts each proof of a claim paid 90 days ago and refuses one paid 91 days ago', async () => {
      const l = await locationWithClaims(app);
      const proofs = (c: Fixture['day90']) => [
        { financialLookupSelector: 'claim', claimNumber: c.claimNumber },
        { financialLookupSelector: 'check', checkNumber: c.checkNumber.toLowerCase() },
        { financialLookupSelector: 'patient', patientMbi: c.patientMbi, dateOfService: c.dateOfService },
      ];
      for (const facts of proofs(l.day90)) {
        const res = await authority(l, facts);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({ success: true, registrationToken: expect.any(String) });
      }
      for (const facts of proofs(l.day91)) {
        const res = await authority(l, facts);
        expect(res.statusCode).toBe(400);
        // A readable sentence: the page shows it as it is.
        expect(res.json().errorMessage).toBe(sentence('Authority_Not_Verified'));
      }
    });

    it('refuses a patient proof whose date of service does not match', async () => {
      const l = await locationWithClaims(app);
      const res = await authority(l, {
        financialLookupSelector: 'patient',
        patientMbi: l.day90.patientMbi,
        dateOfService: daysAgo(1),
      });
      expect(res.json().errorMessage).toBe(sentence('Authority_Not_Verified'));
    });

    it('refuses facts of another location', async () => {
      const l = await locationWithClaims(app);
      const other = await locationWithClaims(app);
      const res = await authority(l, { financialLookupSelector: 'claim', claimNumber: other.day90.claimNumber });
      expect(res.statusCode).toBe(400);
    });

    it('refuses a forged, foreign, or expired validation token with a sentence', async () => {
      const l = await locationWithClaims(app);
      const other = await locationWithClaims(app);
      const facts = { financialLookupSelector: 'claim', claimNumber: l.day90.claimNumber };
      const token = await validationToken(app, l);
      const forged = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      for (const t of [forged, await validationToken(app, other), 'x'.repeat(40)]) {
        const res = await authority(l, facts, undefined, t);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorMessage).toBe(sentence('Validation_Token_Invalid'));
      }
      now += 15 * MINUTE;
      try {
        const res = await authority(l, facts, undefined, token);
        expect(res.json().errorMessage).toBe(sentence('Validation_Token_Invalid'));
      } finally {
        now = START;
      }
    });

    it('answers schema errors as sentences too', async () => {
      const l = await locationWithClaims(app);
      const res = await authority(l, { financialLookupSelector: 'card', cardNumber: '1' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorMessage).toBe(sentence('Validation_Failed'));
    });

    it('locks the location after 5 failures (code and audit event), whoever tries', async () => {
      const l = await locationWithClaims(app);
      const wrong = { financialLookupSelector: 'claim', claimNumber: '9999999999999' };
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await authority(l, wrong)).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
      const right = await authority(l, { financialLookupSelector: 'claim', claimNumber: l.day90.claimNumber });
      expect(right.statusCode).toBe(429);
      expect(right.json().errorMessage).toBe(sentence('Authority_Locked'));
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      const events = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'registration.authority.locked'), eq(auditEvents.target, l.id)));
      expect(events).toHaveLength(1);
      // The refused try is audited with its reason.
      const refusals = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'registration.authority'), eq(auditEvents.target, l.id)));
      expect(refusals).toContainEqual(
        expect.objectContaining({ outcome: 'failure', details: expect.objectContaining({ reason: 'locked' }) }),
      );
    });

    it('a burst of 30 parallel proofs, the right one last, gets no more than 5 verdicts: the right one is refused', async () => {
      const l = await locationWithClaims(app);
      // Tokens first, so the burst below is the authority step alone, each from its own address.
      const tokens = await Promise.all(Array.from({ length: 30 }, () => validationToken(app, l)));
      const facts = tokens.map((_, i) => ({
        financialLookupSelector: 'claim',
        claimNumber: i === 29 ? l.day90.claimNumber : String(8_000_000_000_000 + i),
      }));
      const answers = await Promise.all(facts.map((f, i) => authority(l, f, newIp(), tokens[i])));
      expect(answers[29]!.statusCode).toBe(429);
      expect(answers.filter((a) => a.statusCode === 400).length).toBeLessThanOrEqual(4);
      const locks = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'registration.authority.locked'), eq(auditEvents.target, l.id)));
      expect(locks).toHaveLength(1);
      const issued = await app.database.db
        .select()
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.locationId, l.id), eq(oneTimeTokens.purpose, 'registration')));
      expect(issued).toEqual([]);
    });

    it('refuses a date of service after today before counting an attempt (issue 22 #6)', async () => {
      const l = await locationWithClaims(app);
      // START is 2026-11-23 12:00 UTC: no time zone has reached 2026-11-25 yet.
      const future = {
        financialLookupSelector: 'patient',
        patientMbi: l.day90.patientMbi,
        dateOfService: '2026-11-25',
      };
      for (let i = 0; i < 6; i++) {
        const res = await authority(l, future);
        expect(res.statusCode).toBe(400);
        expect(res.json().fieldErrors).toEqual({
          dateOfService: ['The date of service cannot be in the future. Enter the date the patient was seen.'],
        });
      }
      // Six refusals, none counted: the location is not locked and the right proof still passes.
      const right = await authority(l, { financialLookupSelector: 'claim', claimNumber: l.day90.claimNumber });
      expect(right.statusCode).toBe(200);
    });

    it('limits failures per client across locations', async () => {
      const ip = newIp();
      const wrong = { financialLookupSelector: 'claim', claimNumber: '9999999999999' };
      const a = await locationWithClaims(app);
      const b = await locationWithClaims(app);
      for (let i = 0; i < 4; i++) expect((await authority(a, wrong, ip)).statusCode).toBe(400);
      for (let i = 0; i < 4; i++) expect((await authority(b, wrong, ip)).statusCode).toBe(400);
      const c = await locationWithClaims(app);
      const res = await authority(c, { financialLookupSelector: 'claim', claimNumber: c.day90.claimNumber }, ip);
      expect(res.statusCode).toBe(429);
      expect(res.json().errorMessage).toBe(sentence('Too_Many_Requests'));
      // Another client still can.
      expect(
        (await authority(c, { financialLookupSelector: 'claim', claimNumber: c.day90.claimNumber })).statusCode,
      ).toBe(200);
    });
  });

  describe('POST /api/admin-self-registration', () => {
    it('creates a pending administrator with hashed answers, history, a verification email, in one go', async () => {
      const l = await locationWithClaims(app);
      const body = registrationBody(await registrationToken(app, l));
      const res = await post(app, REGISTRATION_ROUTES.selfRegistration, body);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ data: { registered: true } });
      const { db } = app.database;
      const [user] = await db.select().from(users).where(eq(users.username, body.username));
      expect(user).toMatchObject({ status: 'pending', phone: '4105550123', dob: '1975-06-15', email: body.email });
      expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
      const answers = await db.select().from(securityAnswers).where(eq(securityAnswers.userId, user!.id));
      expect(answers.map((a) => a.questionId).sort()).toEqual(['childhood-nickname', 'first-car', 'first-school']);
      const car = answers.find((a) => a.questionId === 'first-car')!;
      expect(await verifySecurityAnswer(car.answerHash, 'blue honda', app.passwordHasher)).toBe(true);
      expect(await db.select().from(passwordHistory).where(eq(passwordHistory.userId, user!.id))).toHaveLength(1);
      expect(await db.select().from(userLocations).where(eq(userLocations.userId, user!.id))).toEqual([
        expect.objectContaining({ locationId: l.id, role: 'administrator' }),
      ]);
      const [mail] = await queuedEmails(db, { to: body.email });
      expect(mail!.template).toBe('verify-email');
      await expectNothingPersonalKept(app, logLines, ['1975-06-15', 'Honda', 'Lincoln', body.password, l.tin]);
    });

    it('refuses a used, expired or unknown registration token', async () => {
      const l = await locationWithClaims(app);
      const token = await registrationToken(app, l);
      const first = registrationBody(token);
      expect((await post(app, REGISTRATION_ROUTES.selfRegistration, first)).statusCode).toBe(201);
      const again = await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(token));
      expect(again.statusCode).toBe(400);
      expect(again.json().errorMessage).toBe('Registration_Token_Invalid');

      const l2 = await locationWithClaims(app);
      const expiring = await registrationToken(app, l2);
      now += 30 * MINUTE;
      try {
        const late = await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(expiring));
        expect(late.json().errorMessage).toBe('Registration_Token_Invalid');
      } finally {
        now = START;
      }
      const unknown = await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody('y'.repeat(43)));
      expect(unknown.json().errorMessage).toBe('Registration_Token_Invalid');
    });

    it('answers 409 Username_Taken whatever its case, and leaves the token for another try', async () => {
      const l = await locationWithClaims(app);
      const taken = registrationBody(await registrationToken(app, l));
      await post(app, REGISTRATION_ROUTES.selfRegistration, taken);
      const l2 = await locationWithClaims(app);
      const token = await registrationToken(app, l2);
      const res = await post(
        app,
        REGISTRATION_ROUTES.selfRegistration,
        registrationBody(token, { username: taken.username.toUpperCase() }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().errorMessage).toBe('Username_Taken');
      const refusals = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'registration.submit'), eq(auditEvents.outcome, 'failure')));
      expect(refusals).toContainEqual(
        expect.objectContaining({ target: taken.username.toUpperCase(), details: { reason: 'username_taken' } }),
      );
      expect((await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(token))).statusCode).toBe(201);
    });

    it('answers an email already in use like a new one and emails that address a notice', async () => {
      const l = await locationWithClaims(app);
      const first = registrationBody(await registrationToken(app, l));
      await post(app, REGISTRATION_ROUTES.selfRegistration, first);
      const l2 = await locationWithClaims(app);
      const second = registrationBody(await registrationToken(app, l2), {
        email: first.email.toUpperCase(),
        emailConfirmation: first.email,
      });
      const res = await post(app, REGISTRATION_ROUTES.selfRegistration, second);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ data: { registered: true } });
      const mails = await queuedEmails(app, { to: first.email, anyCase: true });
      expect(mails.map((m) => m.template).sort()).toEqual(['registration-email-in-use', 'verify-email']);
    });

    it('checks the fields: dob, names, email twice, three different questions, the password policy', async () => {
      const l = await locationWithClaims(app);
      const token = await registrationToken(app, l);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ dob: undefined }, 'dob', 'Date_Of_Birth_Invalid'],
        [{ dob: '' }, 'dob', 'Date_Of_Birth_Invalid'],
        [{ dob: '1899-12-31' }, 'dob', 'Date_Of_Birth_Invalid'],
        [{ dob: '2100-01-01' }, 'dob', 'Date_Of_Birth_Invalid'],
        [{ dob: '2023-02-29' }, 'dob', 'Date_Of_Birth_Invalid'],
        // After the latest day anywhere (START is 2026-11-23 12:00 UTC, so 2026-11-24 in UTC+14).
        [{ dob: '2026-11-25' }, 'dob', 'Date_Of_Birth_In_Future'],
        [{ dob: '2030-01-01' }, 'dob', 'Date_Of_Birth_In_Future'],
        [{ emailConfirmation: 'other@example.org' }, 'emailConfirmation', 'Email_Mismatch'],
        [{ email: 'not-an-email', emailConfirmation: 'not-an-email' }, 'email', 'Email_Invalid'],
        [{ phone: '123' }, 'phone', 'Phone_Invalid'],
        [{ firstName: '   ' }, 'firstName', 'First_Name_Invalid'],
        [{ username: '1abc' }, 'username', 'Username_Invalid'],
        [{ password: 'short' }, 'password', 'Password_Too_Short'],
        [{ password: 'robin quill is my password' }, 'password', 'Password_Contains_Personal_Info'],
        [
          {
            securityQuestions: [
              { questionId: 'first-car', answer: 'a1' },
              { questionId: 'first-car', answer: 'b2' },
              { questionId: 'first-school', answer: 'c3' },
            ],
          },
          'securityQuestions',
          'Security_Questions_Not_Distinct',
        ],
        [
          { securityQuestions: [{ questionId: 'first-car', answer: 'a1' }] },
          'securityQuestions',
          'Security_Questions_Not_Distinct',
        ],
        // Three identical 2-character answers (issue 19 #10): too short, and the same answer thrice.
        [
          {
            securityQuestions: [
              { questionId: 'first-car', answer: 'ab' },
              { questionId: 'first-school', answer: 'ab' },
              { questionId: 'childhood-nickname', answer: 'ab' },
            ],
          },
          'securityQuestions.0.answer',
          'Security_Answer_Invalid',
        ],
        [
          {
            securityQuestions: [
              { questionId: 'first-car', answer: 'Blue Harbor' },
              { questionId: 'first-school', answer: 'blue  harbor' },
              { questionId: 'childhood-nickname', answer: 'Bee' },
            ],
          },
          'securityQuestions.1.answer',
          'Security_Answers_Not_Distinct',
        ],
        // A key of the right shape that the CMS does not list.
        [
          {
            securityQuestions: [
              { questionId: 'favourite-colour', answer: 'Blue Harbor' },
              { questionId: 'first-school', answer: 'Lincoln' },
              { questionId: 'childhood-nickname', answer: 'Bee' },
            ],
          },
          'securityQuestions.0.questionId',
          'Security_Question_Invalid',
        ],
      ];
      for (const [overrides, field, code] of cases) {
        const res = await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(token, overrides));
        expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
        expect(res.json().fieldErrors[field], JSON.stringify(overrides)).toContain(code);
      }
      // The server's blocklist (the form loads it lazily).
      const common = await post(
        app,
        REGISTRATION_ROUTES.selfRegistration,
        registrationBody(token, { password: 'baseball1234567!' }),
      );
      expect(common.json().fieldErrors.password).toContain('Password_Too_Common');
      // The CMS's list cannot be read: 503, never answers under unchecked keys.
      const cmsDown = vi
        .spyOn(app, 'securityQuestionKeys')
        .mockRejectedValue(new PortalError(503, 'Service_Unavailable'));
      const down = await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(token));
      cmsDown.mockRestore();
      expect([down.statusCode, down.json().errorMessage]).toEqual([503, 'Service_Unavailable']);
      // None of it spent the token.
      expect((await post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(token))).statusCode).toBe(201);
    });

    it('lets exactly one of two registrations racing for one location win', async () => {
      const l = await locationWithClaims(app);
      const token = await registrationToken(app, l);
      // The same token twice at once.
      const same = await Promise.all([
        post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(token)),
        post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(token)),
      ]);
      expect(same.map((r) => r.statusCode).sort()).toEqual([201, 400]);

      // Two valid tokens for one location at once (the newer voids the older, so the second is written directly).
      const l2 = await locationWithClaims(app);
      const tokenA = await registrationToken(app, l2);
      const tokenB = 'b'.repeat(43);
      await app.database.db.insert(oneTimeTokens).values({
        tokenHash: hashOneTimeToken(tokenB),
        locationId: l2.id,
        purpose: 'registration',
        expiresAt: new Date(START + 10 * MINUTE),
      });
      const racing = await Promise.all([
        post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(tokenA)),
        post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(tokenB)),
      ]);
      expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const admins = await app.database.db
        .select()
        .from(userLocations)
        .where(and(eq(userLocations.locationId, l2.id), eq(userLocations.role, 'administrator')));
      expect(admins).toHaveLength(1);
    });

    it('serialises registrations for one location on its row (PostgreSQL: both wait, then exactly one wins)', async (ctx) => {
      if (app.database.kind !== 'postgres') ctx.skip(); // PGlite is one connection: transactions never overlap
      const { db } = app.database;
      const l = await locationWithClaims(app);
      const tokenA = await registrationToken(app, l);
      const tokenB = 'c'.repeat(43);
      await db.insert(oneTimeTokens).values({
        tokenHash: hashOneTimeToken(tokenB),
        locationId: l.id,
        purpose: 'registration',
        expiresAt: new Date(START + 10 * MINUTE),
      });
      // Hold the location's row so both registrations are inside their transactions at the same time.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const holding = db.transaction(async (tx) => {
        await tx.execute(sql`select id from provider_locations where id = ${l.id} for update`);
        await released;
      });
      let settled = 0;
      const racing = Promise.all(
        [tokenA, tokenB].map((t) =>
          post(app, REGISTRATION_ROUTES.selfRegistration, registrationBody(t)).finally(() => settled++),
        ),
      );
      await vi.waitFor(
        async () => {
          const waiting = rowsOf<{ n: number }>(
            await db.execute(sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`),
          )[0]!.n;
          expect(waiting + settled).toBeGreaterThanOrEqual(2);
        },
        { timeout: 20_000, interval: 50 },
      );
      release();
      await holding;
      const results = await racing;
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    });

    it('leaves nothing behind when the database fails mid-registration, and the token still works after', async () => {
      const l = await locationWithClaims(app);
      const token = await registrationToken(app, l);
      const body = registrationBody(token);
      const { db } = app.database;
      // The outbox write is the last step: fail it for this one address.
      await db.execute(
        sql.raw(`create or replace function fail_registration_mail() returns trigger language plpgsql as $$
          begin
            if new.recipient = '${body.email}' then raise exception 'injected failure'; end if;
            return new;
          end $$`),
      );
      await db.execute(
        sql.raw(`create trigger fail_registration_mail before insert on outbox
          for each row execute function fail_registration_mail()`),
      );
      try {
        const res = await post(app, REGISTRATION_ROUTES.selfRegistration, body);
        expect(res.statusCode).toBe(500);
        expect(res.json().errorMessage).toBe('Generic_Error_For_Services');
        // The failure is logged with its SQL, never with the query's values (email, token, names).
        const failure = logLines.find((line) => line.includes('injected failure'));
        expect(failure).toBeDefined();
        expect(failure).not.toContain(body.email);
        expect(failure).not.toContain('Robin');
      } finally {
        await db.execute(sql`drop trigger fail_registration_mail on outbox`);
      }
      expect(await db.select().from(users).where(eq(users.username, body.username))).toHaveLength(0);
      expect(await db.select().from(userLocations).where(eq(userLocations.locationId, l.id))).toHaveLength(0);
      expect(await queuedEmails(db, { to: body.email })).toHaveLength(0);
      const orphans = await db.execute(sql`
        select (select count(*) from security_answers sa where not exists (select 1 from users u where u.id = sa.user_id))
             + (select count(*) from password_history ph where not exists (select 1 from users u where u.id = ph.user_id)) as n`);
      expect(Number((orphans as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
      expect((await post(app, REGISTRATION_ROUTES.selfRegistration, body)).statusCode).toBe(201);
    });
  });

  describe('email verification', () => {
    async function registered() {
      const l = await locationWithClaims(app);
      const body = registrationBody(await registrationToken(app, l));
      await post(app, REGISTRATION_ROUTES.selfRegistration, body);
      return { l, body };
    }
    const linkToken = (email: string) => verificationToken(app, email);

    it('activates the account once with the emailed token', async () => {
      const { body } = await registered();
      const token = await linkToken(body.email);
      const res = await post(app, REGISTRATION_ROUTES.verifyEmail, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { verified: true } });
      const [user] = await app.database.db.select().from(users).where(eq(users.username, body.username));
      expect(user!.status).toBe('active');
      // The same link again, on the now active account: it says so (and the page offers the login), not "invalid".
      const again = await post(app, REGISTRATION_ROUTES.verifyEmail, { token });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ errorMessage: 'Email_Already_Verified' });
      const unknown = await post(app, REGISTRATION_ROUTES.verifyEmail, { token: 'z'.repeat(43) });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errorMessage).toBe('Verification_Link_Invalid');
    });

    it('refuses the link once it is 72 hours old', async () => {
      const { body } = await registered();
      const token = await linkToken(body.email);
      now += 72 * 60 * MINUTE;
      try {
        const res = await post(app, REGISTRATION_ROUTES.verifyEmail, { token });
        expect(res.json().errorMessage).toBe('Verification_Link_Invalid');
      } finally {
        now = START;
      }
      expect((await post(app, REGISTRATION_ROUTES.verifyEmail, { token })).statusCode).toBe(200);
    });

    it('takes the longest email address there is', async () => {
      const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.org`;
      expect(email).toHaveLength(254);
      expect((await post(app, REGISTRATION_ROUTES.resendVerification, { email })).statusCode).toBe(200);
    });

    it('limits resend calls per client', async () => {
      const ip = newIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push(
          (await post(app, REGISTRATION_ROUTES.resendVerification, { email: `n${i}@example.org` }, ip)).statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it('resends a new link (the old one stops working), with the same answer whether or not anything was sent', async () => {
      const { body } = await registered();
      const old = await linkToken(body.email);
      const resend = await post(app, REGISTRATION_ROUTES.resendVerification, { email: body.email });
      const unknown = await post(app, REGISTRATION_ROUTES.resendVerification, { email: 'nobody@example.org' });
      expect(resend.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(resend.body).toBe(unknown.body);
      const fresh = await linkToken(body.email);
      expect(fresh).not.toBe(old);
      expect((await post(app, REGISTRATION_ROUTES.verifyEmail, { token: old })).statusCode).toBe(400);
      expect((await post(app, REGISTRATION_ROUTES.verifyEmail, { token: fresh })).statusCode).toBe(200);
    });

    it('sends at most 3 resends per address and hour, still answering the same', async () => {
      const { body } = await registered();
      for (let i = 0; i < 5; i++)
        expect((await post(app, REGISTRATION_ROUTES.resendVerification, { email: body.email })).statusCode).toBe(200);
      const mails = await queuedEmails(app, { to: body.email, template: 'verify-email' });
      expect(mails).toHaveLength(1 + 3);
    });

    it('deletes registrations unverified after 72 hours and frees the location', async () => {
      const stale = await registered();
      const fresh = await registered();
      const { db } = app.database;
      await registeredAgo(app, stale.body.username, '72 hours 1 minute');
      await registeredAgo(app, fresh.body.username, '71 hours');
      expect(await app.jobs.runOnce(REGISTRATION_EXPIRY_JOB, { force: true })).toBe(true);
      expect(await db.select().from(users).where(eq(users.username, stale.body.username))).toHaveLength(0);
      expect(await db.select().from(users).where(eq(users.username, fresh.body.username))).toHaveLength(1);
      expect((await post(app, REGISTRATION_ROUTES.validateProvider, providerBody(stale.l))).statusCode).toBe(200);
      expect((await post(app, REGISTRATION_ROUTES.validateProvider, providerBody(fresh.l))).statusCode).toBe(409);
    });
  });

  describe('fuzzing: arbitrary and near-valid JSON never gets a 5xx', () => {
    const routes = Object.values(REGISTRATION_ROUTES);

    it('arbitrary JSON bodies', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), fc.json(), async (url, json) => {
          const res = await app.inject({
            method: 'POST',
            url,
            remoteAddress: newIp(),
            headers: { ...portalHeaders, 'content-type': 'application/json' },
            payload: json,
          });
          expect(res.statusCode).toBeGreaterThanOrEqual(200);
          expect(res.statusCode).toBeLessThan(500);
        }),
        { numRuns: 150 },
      );
    });

    it('near-valid bodies: one field replaced by anything, or removed, or one added', async () => {
      const l = await locationWithClaims(app);
      const valid: Record<string, Record<string, unknown>> = {
        [REGISTRATION_ROUTES.validateProvider]: providerBody(l),
        [REGISTRATION_ROUTES.validateAuthority]: {
          npi: l.npi,
          validationToken: await validationToken(app, l),
          financialLookupSelector: 'patient',
          patientMbi: l.day91.patientMbi,
          dateOfService: l.day91.dateOfService,
        },
        [REGISTRATION_ROUTES.selfRegistration]: registrationBody('q'.repeat(43)),
        [REGISTRATION_ROUTES.verifyEmail]: { token: 'r'.repeat(43) },
        [REGISTRATION_ROUTES.resendVerification]: { email: 'someone@example.org' },
      };
      const mutation = fc.oneof(
        fc.record({ kind: fc.constant('replace' as const), index: fc.nat(), value: fc.jsonValue() }),
        fc.record({ kind: fc.constant('remove' as const), index: fc.nat(), value: fc.constant(null) }),
        fc.record({ kind: fc.constant('add' as const), index: fc.string(), value: fc.jsonValue() }),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...routes), mutation, async (url, m) => {
          const body: Record<string, unknown> = { ...valid[url] };
          const keys = Object.keys(body);
          if (m.kind === 'add') body[String(m.index)] = m.value;
          else if (m.kind === 'remove') delete body[keys[(m.index as number) % keys.length]!];
          else body[keys[(m.index as number) % keys.length]!] = m.value;
          const res = await post(app, url, body);
          expect(res.statusCode).toBeGreaterThanOrEqual(200);
          expect(res.statusCode).toBeLessThan(500);
        }),
        { numRuns: 200 },
      );
    });
  });
});
