import { randomUUID } from 'node:crypto';
import { SESSION_COOKIE } from '@portal/contracts/auth';
import {
  FORGOT_PASSWORD_PATH,
  FORGOT_USERNAME_PATH,
  RESET_PASSWORD_PATH,
  SELF_REACTIVATION_PATH,
} from '@portal/contracts/login-help';
import { FIND_ADMIN_PATH } from '@portal/contracts/find-admin';
import { DDE_SUBMIT_PATH, GET_EASI_PATH } from '@portal/contracts/dde-access';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/demo-data';
import { providerLocations } from '../src/db/schema';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, portalHeaders, testConfig } from './helpers';
import { ANSWER, createAccount, link } from './factories';

/**
 * Every login-help, find-admin and DDE endpoint takes arbitrary JSON (and near-valid bodies with one field replaced
 * by anything) and answers 2xx or 4xx, never a 500.
 */
describe('fuzzing the login-help, find-admin and DDE endpoints', () => {
  let app: FastifyInstance;
  let cookie: string;
  const valid: Record<string, object[]> = {};

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      config: testConfig({
        LOGIN_HELP_ATTEMPTS_PER_MINUTE: '10000',
        FIND_ADMIN_PER_MINUTE: '10000',
        FIND_ADMIN_PER_DAY: '10000',
      }),
    }));
    await seedDemoData(app.database.db, { locations: 3, today: '2026-11-23' });
    const [location] = await app.database.db.select().from(providerLocations).limit(1);
    const user = await createAccount(app, 'fuzz.user', { status: 'disabled_inactive' });
    await link(app, user.id, location!.id, 'user');
    cookie = await createSession(app.database.db, {
      userId: user.id,
      stage: 'active',
      now: new Date(),
      limits: app.config.sessions,
    });
    const token = 'A'.repeat(43);
    valid[FORGOT_USERNAME_PATH] = [{ email: user.email, dob: '1980-01-01' }];
    valid[FORGOT_PASSWORD_PATH] = [{ username: 'fuzz.user', email: user.email, isInternal: false }];
    valid[RESET_PASSWORD_PATH] = [
      { step: 'question', token },
      { step: 'set-password', token, answer: ANSWER, newPassword: 'a long enough new password here' },
    ];
    valid[SELF_REACTIVATION_PATH] = [
      { step: 'request-code', username: 'fuzz.user', dob: '1980-01-01' },
      { step: 'verify-code', username: 'fuzz.user', code: '123456' },
      { step: 'verify-answer', username: 'fuzz.user', code: '123456', answer: ANSWER },
      { step: 'set-password', username: 'fuzz.user', code: '123456', answer: ANSWER, newPassword: 'x'.repeat(20) },
    ];
    valid[FIND_ADMIN_PATH] = [{ npi: location!.npi, ptan: location!.ptan, tin: location!.tin }];
    valid[GET_EASI_PATH] = [{}, { locationId: location!.id }];
    valid[DDE_SUBMIT_PATH] = [
      {
        idempotencyKey: randomUUID(),
        locationId: location!.id,
        requestType: 'change',
        ddeAccessType: 'inquiry',
        submitterId: 'S1',
        networkServiceVendor: 'Vendor',
      },
    ];
  });
  afterAll(() => app.close());

  const send = (url: string, payload: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...portalHeaders, 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${cookie}` },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  // Any code unit, NUL and lone surrogates included: PostgreSQL refuses NUL in text, which must not become a 500.
  const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constant('a\u0000b@example.com'));
  const anyJson = fc.oneof(fc.jsonValue(), fc.dictionary(anyString, fc.jsonValue({ stringUnit: 'binary' })));
  /** A valid body of the endpoint with one field set to anything, dropped, or an extra field added. */
  const nearValid = (url: string) =>
    fc
      .tuple(
        fc.constantFrom(...valid[url]!),
        anyString,
        fc.oneof(fc.jsonValue({ stringUnit: 'binary' }), anyString),
        fc.constantFrom('replace', 'drop', 'add'),
      )
      .map(([body, extraKey, value, how]) => {
        const copy: Record<string, unknown> = { ...body };
        const keys = Object.keys(copy);
        const key = keys.length && how !== 'add' ? keys[extraKey.length % keys.length]! : extraKey || 'extra';
        if (how === 'drop') delete copy[key];
        else copy[key] = value;
        return copy;
      });

  const endpoints = [
    FORGOT_USERNAME_PATH,
    FORGOT_PASSWORD_PATH,
    RESET_PASSWORD_PATH,
    SELF_REACTIVATION_PATH,
    FIND_ADMIN_PATH,
    GET_EASI_PATH,
    DDE_SUBMIT_PATH,
  ];

  for (const url of endpoints) {
    it(`${url}: arbitrary JSON, raw text and near-valid bodies answer 2xx or 4xx`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyJson, nearValid(url), anyString), async (payload) => {
          const res = await send(url, payload);
          expect(res.statusCode, `${res.statusCode} ${res.body}`).toBeLessThan(500);
          expect(res.statusCode).toBeGreaterThanOrEqual(200);
        }),
        { numRuns: 100 },
      );
    });
  }
});
