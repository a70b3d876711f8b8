import { ACCOUNT_ROUTES } from '@portal/contracts/account';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sessions, users } from '../src/db/schema';
import { currentTotp } from '../src/identity/mfa/totp';
import { endAllSessions } from '../src/identity/sessions/store';
import { buildTestApp, callAs, logInWithTotp, type TestClient, testClock, longSessionsConfig } from './helpers';
import { SoftAuthenticator } from './support/soft-authenticator';
import { createPerson, TOTP_SECRET, newIp, queuedEmails } from './factories';

/**
 * The account lockout under bursts and across logins (docs/requirements/session.md#lockout, docs/decisions/0029).
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL with a pool of connections (helpers.ts), where the
 * statements of parallel requests really interleave.
 */

const PASSWORD = 'correct horse battery staple orbit';
const MINUTE = 60_000;

describe('account lockout', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let userCounter = 0;

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      clock: clock.now,
      config: longSessionsConfig({
        SESSION_IDLE_MS: String(600 * MINUTE),
        SESSION_ABSOLUTE_MS: String(1200 * MINUTE),
      }),
    }));
  });
  afterAll(() => app.close());

  const call = (client: TestClient, method: 'GET' | 'POST', url: string, payload?: object) =>
    callAs(app, client, method, url, payload);

  async function createUser() {
    const username = `lockout.user${++userCounter}`;
    return createPerson(app, {
      username: username,
      firstName: 'Sam',
      lastName: 'Lockwood',
      password: PASSWORD,
      totpSecret: TOTP_SECRET,
      mfaEnrolledAt: clock.now(),
    });
  }

  const userRow = async (id: string) => (await app.database.db.select().from(users).where(eq(users.id, id)))[0]!;
  const lockEvents = (id: string) =>
    app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, id), eq(auditEvents.action, 'account.locked')));
  const lockEmails = (email: string) => queuedEmails(app, { to: email, template: 'account-locked' });

  const loginFully = (client: TestClient, username: string) =>
    logInWithTotp(app, clock, client, { username, password: PASSWORD, secret: TOTP_SECRET });

  it('a burst of 40 parallel guesses: 5 failures count, one lock, one email; no login completes after the lock', async () => {
    const user = await createUser();
    // 39 wrong passwords, then the right one, all in flight at once (as 40 clients would send them).
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 39 ? PASSWORD : `wrong guess number ${i}`));
    const clients = guesses.map(() => ({ ip: newIp() }) as TestClient);
    const answers = await Promise.all(
      guesses.map((password, i) => call(clients[i]!, 'POST', '/api/auth/login', { username: user.username, password })),
    );

    // The right password was judged after the fifth failure had locked the account: refused, with the lock named if
    // the lock was already there when its account was read, like any guess if it came while its hash was computed.
    expect([401, 403]).toContain(answers[39]!.statusCode);
    expect(['Login_Failed', 'Account_Locked']).toContain(answers[39]!.json().errorMessage);
    expect((await userRow(user.id)).lockedUntil!.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(await lockEvents(user.id)).toHaveLength(1);
    expect(await lockEmails(user.email)).toHaveLength(1);
    const wrongPasswords = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, user.id), eq(auditEvents.action, 'login.failed')));
    expect(wrongPasswords.filter((e) => e.details?.reason === 'wrong_password').length).toBeLessThanOrEqual(5);

    // Whatever got a pending login during the burst cannot complete it now: the account is locked.
    clock.advance(MINUTE);
    for (const [i, answer] of answers.entries()) {
      if (answer.statusCode !== 200) continue;
      const mfa = await call(clients[i]!, 'POST', '/api/auth/mfa', {
        code: await currentTotp(TOTP_SECRET, clock.now()),
      });
      expect(mfa.statusCode).toBe(401);
    }
    const active = await app.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.stage, 'active')));
    expect(active).toEqual([]);
  }, 120_000); // 40 argon2id verifications on a shared machine

  it('parallel logins of one account with its right password all succeed (the lockout counts failures only)', async () => {
    const user = await createUser();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call({ ip: newIp() }, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(await lockEvents(user.id)).toEqual([]);
  }, 60_000);

  it('a session stops working at its next request once its account is locked, disabled or deleted', async () => {
    for (const change of ['locked', 'disabled', 'deleted'] as const) {
      const user = await createUser();
      const client: TestClient = { ip: newIp() };
      await loginFully(client, user.username);
      expect((await call(client, 'GET', ACCOUNT_ROUTES.account)).statusCode, change).toBe(200);
      const { db } = app.database;
      if (change === 'locked')
        await db
          .update(users)
          .set({ lockedUntil: new Date(clock.now().getTime() + 30 * MINUTE) })
          .where(eq(users.id, user.id));
      if (change === 'disabled') await db.update(users).set({ status: 'disabled_admin' }).where(eq(users.id, user.id));
      if (change === 'deleted') await db.delete(users).where(eq(users.id, user.id));
      const cookie = client.cookie;
      const after = await call(client, 'GET', ACCOUNT_ROUTES.account);
      expect(after.statusCode, change).toBe(401);
      // The holder is told why when the account is locked or disabled (docs/requirements/session.md#forced-logout).
      expect(after.json(), change).toEqual({
        errorMessage: {
          locked: 'Session_Ended_Account_Locked',
          disabled: 'Session_Ended_Account_Disabled',
          deleted: 'Session_Expired',
        }[change],
      });
      expect((await call({ ...client, cookie }, 'GET', '/api/session')).json().data.loggedIn, change).toBe(false);
      // Ended, not suspended: the lock running out does not bring it back.
      expect(await db.select().from(sessions).where(eq(sessions.userId, user.id)), change).toEqual([]);
    }
  });

  it('wrong second factors count per account across logins: the 20th locks it, emails the owner and is audited', async () => {
    const user = await createUser();
    const wrongFactor = async (client: TestClient, i: number) => {
      // TOTP codes, recovery codes and passkey assertions all count.
      const res =
        i % 3 === 0
          ? await call(client, 'POST', '/api/auth/mfa', { code: String(100000 + i) })
          : i % 3 === 1
            ? await call(client, 'POST', '/api/auth/mfa', { code: 'ABCD-EFGH-JKMN' })
            : await call(client, 'POST', ACCOUNT_ROUTES.passkeyLogin, {
                credential: {
                  id: 'no-such-key',
                  rawId: 'no-such-key',
                  type: 'public-key',
                  response: { clientDataJSON: 'e30' },
                },
              });
      expect(res.statusCode).toBe(401);
    };
    // A new login after every 9 wrong factors: the per-login limit (10) never ends one, only the account's counts.
    let client: TestClient = { ip: newIp() };
    for (let i = 0; i < 19; i++) {
      if (i % 9 === 0) {
        client = { ip: newIp() };
        expect(
          (await call(client, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD })).statusCode,
        ).toBe(200);
      }
      await wrongFactor(client, i);
    }
    expect(await lockEvents(user.id)).toEqual([]);
    expect((await userRow(user.id)).mfaFailedCount).toBe(19);
    await wrongFactor(client, 19);

    const [event] = await lockEvents(user.id);
    expect(event!.details).toMatchObject({ reason: 'second_factor', count: 20 });
    expect(await lockEmails(user.email)).toHaveLength(1);
    // The pending login ended, and the right password is refused until the lock runs out.
    const after = await call(client, 'POST', '/api/auth/mfa', { code: await currentTotp(TOTP_SECRET, clock.now()) });
    expect(after.json()).toEqual({ errorMessage: 'Session_Ended_Account_Locked' });
    const relogin = await call({ ip: newIp() }, 'POST', '/api/auth/login', {
      username: user.username,
      password: PASSWORD,
    });
    // The right password learns that the account is locked (docs/requirements/session.md#login).
    expect(relogin.json()).toEqual({ errorMessage: 'Account_Locked' });

    // After the lock: until a second factor is accepted, one more wrong one locks the account again.
    clock.advance(61 * MINUTE);
    client = { ip: newIp() };
    await call(client, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD });
    await wrongFactor(client, 0);
    expect(await lockEvents(user.id)).toHaveLength(2);
    expect(await lockEmails(user.email)).toHaveLength(2);

    // An accepted second factor resets the account's count.
    clock.advance(61 * MINUTE);
    client = { ip: newIp() };
    await call(client, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD });
    expect((await userRow(user.id)).mfaFailedCount).toBe(19);
    const ok = await call(client, 'POST', '/api/auth/mfa', { code: await currentTotp(TOTP_SECRET, clock.now()) });
    expect(ok.json()).toEqual({ data: { loggedIn: true } });
    expect((await userRow(user.id)).mfaFailedCount).toBe(0);
  });

  it('a burst of 30 parallel wrong codes on one account is checked no more than its limit allows', async () => {
    const user = await createUser();
    const clients = Array.from({ length: 3 }, () => ({ ip: newIp() }) as TestClient);
    for (const client of clients)
      await call(client, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD });
    const codes = Array.from({ length: 30 }, (_, i) => String(200000 + i));
    await Promise.all(codes.map((code, i) => call(clients[i % 3]!, 'POST', '/api/auth/mfa', { code })));
    const failures = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, user.id), eq(auditEvents.action, 'login.mfa_failed')));
    // Checked (and counted) at most 20 times; the rest were refused unchecked (reason `locked`).
    expect(failures.filter((e) => e.details?.reason !== 'locked').length).toBeLessThanOrEqual(20);
    expect(await lockEvents(user.id)).toHaveLength(1);
  });

  it('a passkey assertion whose user handle names another account is refused (WebAuthn L3 §7.2)', async () => {
    const owner = await createUser();
    const other = await createUser();
    const client: TestClient = { ip: newIp() };
    await loginFully(client, owner.username);
    const authenticator = new SoftAuthenticator();
    const options = (await call(client, 'POST', ACCOUNT_ROUTES.passkeyRegistrationOptions)).json().data;
    const origin = 'http://localhost:3000';
    const registered = await call(client, 'POST', ACCOUNT_ROUTES.passkeyRegistration, {
      name: 'Laptop',
      credential: authenticator.register(options, origin),
    });
    expect(registered.statusCode).toBe(200);

    const handle = (id: string) => Buffer.from(id, 'utf8').toString('base64url');
    const browser: TestClient = { ip: newIp() };
    await call(browser, 'POST', '/api/auth/login', { username: owner.username, password: PASSWORD });
    const first = (await call(browser, 'POST', ACCOUNT_ROUTES.passkeyLoginOptions)).json().data;
    const foreign = await call(browser, 'POST', ACCOUNT_ROUTES.passkeyLogin, {
      credential: authenticator.authenticate(first, origin, undefined, handle(other.id)),
    });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual({ errorMessage: 'Passkey_Verification_Failed' });
    // The account's own handle (or none) is accepted.
    const second = (await call(browser, 'POST', ACCOUNT_ROUTES.passkeyLoginOptions)).json().data;
    const own = await call(browser, 'POST', ACCOUNT_ROUTES.passkeyLogin, {
      credential: authenticator.authenticate(second, origin, undefined, handle(owner.id)),
    });
    expect(own.json()).toEqual({ data: { loggedIn: true } });
  });

  it('only the right password learns why an account cannot log in; a wrong one and an unknown name get the same answer', async () => {
    const login = (username: string, password: string) =>
      call({ ip: newIp() }, 'POST', '/api/auth/login', { username, password });
    const user = await createUser();
    for (let i = 0; i < 5; i++) await login(user.username, `wrong ${i}`);
    const unknown = await login('nobody.at.all', 'wrong');
    const wrong = await login(user.username, 'wrong again');
    expect(wrong.statusCode).toBe(unknown.statusCode);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ errorMessage: 'Login_Failed' });
    const right = await login(user.username, PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({ errorMessage: 'Account_Locked' });
    // When the lock ends: the seconds from now (60 minutes by default).
    expect(Number(right.headers['retry-after'])).toBe(3600);
    const { db } = app.database;
    for (const [status, code] of [
      ['disabled_admin', 'Account_Disabled'],
      ['disabled_inactive', 'Account_Inactive'],
      ['locked', 'Account_Locked'],
    ] as const) {
      const other = await createUser();
      await db.update(users).set({ status }).where(eq(users.id, other.id));
      const refused = await login(other.username, 'not it');
      expect(refused.json(), status).toEqual({ errorMessage: 'Login_Failed' });
      const told = await login(other.username, PASSWORD);
      expect(told.statusCode, status).toBe(403);
      expect(told.json(), status).toEqual({ errorMessage: code });
      expect(told.headers['retry-after'], status).toBeUndefined();
    }
  }, 120_000);

  it('wrong passwords count across unlocks to the daily ceiling (20): then the account waits for the help desk', async () => {
    const login = (username: string, password: string) =>
      call({ ip: newIp() }, 'POST', '/api/auth/login', { username, password });
    const user = await createUser();
    const { db } = app.database;
    // Four rounds of five wrong passwords, each lock lifted as an administrator's unlock lifts it.
    for (let round = 1; round <= 4; round++) {
      for (let i = 0; i < 5; i++) await login(user.username, `wrong ${round}.${i}`);
      const row = await userRow(user.id);
      if (round < 4) {
        expect(row.status, `round ${round}`).toBe('active');
        expect(row.lockedUntil!.getTime(), `round ${round}`).toBeGreaterThan(clock.now().getTime());
        await db
          .update(users)
          .set({ lockedUntil: null, failedLoginCount: 0, failedLoginFirstAt: null })
          .where(eq(users.id, user.id));
      } else {
        // The 20th of the day: locked with no end.
        expect(row).toMatchObject({ status: 'locked', lockedUntil: null });
      }
    }
    const right = await login(user.username, PASSWORD);
    expect(right.json()).toEqual({ errorMessage: 'Account_Locked_Help_Desk' });
    expect((await lockEvents(user.id)).map((e) => e.details?.reason)).toEqual([
      'password',
      'password',
      'password',
      'daily_ceiling',
    ]);
    const emails = await lockEmails(user.email);
    expect(emails.at(-1)!.data).toEqual({ firstName: 'Sam', helpDesk: true });
    // Hours later the lock holds: nothing but the help desk ends it.
    clock.advance(6 * 60 * MINUTE);
    expect((await login(user.username, PASSWORD)).json()).toEqual({ errorMessage: 'Account_Locked_Help_Desk' });
  }, 180_000);

  it('a session someone else ended answers its reason: the next request (401) and the session check, once', async () => {
    for (const [reason, code] of [
      ['account_disabled', 'Session_Ended_Account_Disabled'],
      ['mfa_reset', 'Session_Ended_Mfa_Reset'],
      ['account_locked', 'Session_Ended_Account_Locked'],
    ] as const) {
      const user = await createUser();
      const client: TestClient = { ip: newIp() };
      await loginFully(client, user.username);
      const other: TestClient = { ip: newIp() };
      await loginFully(other, user.username);
      await app.database.db.transaction((tx) => endAllSessions(tx, user.id, { reason }));
      const after = await call(client, 'GET', ACCOUNT_ROUTES.account);
      expect(after.statusCode, reason).toBe(401);
      expect(after.json(), reason).toEqual({ errorMessage: code });
      // The other browser learns it from its session check, which clears its cookie.
      const state = await call(other, 'GET', '/api/session');
      expect(state.json().data, reason).toEqual({ loggedIn: false, endedBecause: code });
      // A session that simply expired says nothing more.
      expect((await call({ ip: newIp(), cookie: 'made-up-session-id' }, 'GET', '/api/session')).json().data).toEqual({
        loggedIn: false,
      });
    }
    // A user's own credential change (sign out everywhere else) ends the other sessions with the plain answer.
    const user = await createUser();
    const client: TestClient = { ip: newIp() };
    await loginFully(client, user.username);
    await app.database.db.transaction((tx) => endAllSessions(tx, user.id, { reason: 'credential_change' }));
    expect((await call(client, 'GET', ACCOUNT_ROUTES.account)).json()).toEqual({ errorMessage: 'Session_Expired' });
  });
});
