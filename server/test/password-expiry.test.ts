import { ACCOUNT_ROUTES } from '@portal/contracts/account';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../src/db/schema';
import { currentTotp } from '../src/identity/mfa/totp';
import { rememberPassword } from '../src/identity/passwords/history';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, callAs, testConfig, type TestClient } from './helpers';
import { SoftAuthenticator } from './support/soft-authenticator';
import { createPerson, TOTP_SECRET, newIp, queuedEmails } from './factories';

/**
 * The optional password maximum age (docs/requirements/session.md#password-maximum-age): off by default; when set, a login whose
 * password is older goes password → second factor → a new password, and only then is logged in.
 */

const PASSWORD = 'correct horse battery staple orbit';
const NEW_PASSWORD = 'violet harbor seventeen lanterns';
const ORIGIN = 'http://localhost:3000';
const DAY = 86_400_000;
const MAX_AGE_DAYS = 90;

type Client = TestClient;

async function portal(settings: Record<string, string> = {}) {
  let now = Date.parse('2026-11-23T09:00:00Z');
  const clock = { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
  const { app } = await buildTestApp({ clock: clock.now, config: testConfig(settings) });
  let userCounter = 0;

  const call = (client: Client, method: 'GET' | 'POST', url: string, payload?: object) =>
    callAs(app, client, method, url, payload);

  /** A user whose password was set `ageMs` ago; enrolled in the authenticator app unless `enrolled` is false. */
  async function createUser(ageMs = 0, enrolled = true) {
    const username = `expiry.user${++userCounter}`;
    const user = await createPerson(app, {
      username: username,
      firstName: 'Robin',
      lastName: 'Example',
      password: PASSWORD,
      passwordChangedAt: new Date(clock.now().getTime() - ageMs),
      ...(enrolled ? { totpSecret: TOTP_SECRET, mfaEnrolledAt: clock.now() } : {}),
    });
    await rememberPassword(app.database.db, user.id, user.passwordHash, 6);
    return user;
  }

  /** Password, then a TOTP code (each login takes the next 30-second step: a code is accepted once). Answers the MFA answer. */
  async function login(client: Client, username: string, password = PASSWORD) {
    const first = await call(client, 'POST', '/api/auth/login', { username, password });
    expect(first.json()).toEqual({ data: { next: 'mfa' } });
    return call(client, 'POST', '/api/auth/mfa', { code: await currentTotp(TOTP_SECRET, clock.now()) });
  }

  /** Another logged-in session of the user (another browser), made directly in the table. */
  async function otherSession(userId: string): Promise<Client> {
    const id = await createSession(app.database.db, {
      userId,
      stage: 'active',
      now: clock.now(),
      limits: app.config.sessions,
      authenticatedAt: clock.now(),
    });
    return { ip: newIp(), cookie: id };
  }

  const loggedIn = async (client: Client) => (await call(client, 'GET', ACCOUNT_ROUTES.account)).statusCode === 200;

  return { app, clock, call, createUser, login, otherSession, loggedIn };
}

const expiredAnswer = { data: { loggedIn: false, next: 'password-change', passwordMaxAgeDays: MAX_AGE_DAYS } };

describe('password maximum age: off by default', () => {
  let ctx: Awaited<ReturnType<typeof portal>>;
  beforeAll(async () => {
    ctx = await portal();
  });
  afterAll(() => ctx.app.close());

  it('a password 400 days old still logs straight in (no periodic change is forced)', async () => {
    expect(ctx.app.config.passwords.maxAgeDays).toBeUndefined();
    const user = await ctx.createUser();
    ctx.clock.advance(400 * DAY);
    const client: Client = { ip: newIp() };
    const res = await ctx.login(client, user.username);
    expect(res.json()).toEqual({ data: { loggedIn: true } });
    expect(await ctx.loggedIn(client)).toBe(true);
  });
});

describe(`password maximum age: PASSWORD_MAX_AGE_DAYS=${MAX_AGE_DAYS}`, () => {
  let ctx: Awaited<ReturnType<typeof portal>>;
  beforeAll(async () => {
    ctx = await portal({ PASSWORD_MAX_AGE_DAYS: String(MAX_AGE_DAYS) });
  });
  afterAll(() => ctx.app.close());

  it(`a password one second short of ${MAX_AGE_DAYS} days logs in; at ${MAX_AGE_DAYS} days the login asks for a new one`, async () => {
    ctx.clock.advance(31_000);
    const young = await ctx.createUser(MAX_AGE_DAYS * DAY - 1000);
    const youngClient: Client = { ip: newIp() };
    expect((await ctx.login(youngClient, young.username)).json()).toEqual({ data: { loggedIn: true } });
    expect(await ctx.loggedIn(youngClient)).toBe(true);

    ctx.clock.advance(31_000);
    const old = await ctx.createUser(MAX_AGE_DAYS * DAY);
    const oldClient: Client = { ip: newIp() };
    expect((await ctx.login(oldClient, old.username)).json()).toEqual(expiredAnswer);
    expect(await ctx.loggedIn(oldClient)).toBe(false);
  });

  it('until the new password is set, the session is no login: 401 on protected routes, the session says which step is pending', async () => {
    ctx.clock.advance(31_000);
    const user = await ctx.createUser(200 * DAY);
    const client: Client = { ip: newIp() };
    await ctx.call(client, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD });
    const pendingCookie = client.cookie;
    const answer = await ctx.call(client, 'POST', '/api/auth/mfa', {
      code: await currentTotp(TOTP_SECRET, ctx.clock.now()),
    });
    expect(answer.json()).toEqual(expiredAnswer);
    expect(client.cookie).not.toBe(pendingCookie); // a new id at the new stage
    expect((await ctx.call(client, 'GET', '/api/session')).json().data).toMatchObject({
      loggedIn: false,
      mfaPending: 'password-change',
    });
    for (const [method, url, payload] of [
      ['GET', ACCOUNT_ROUTES.account],
      ['GET', ACCOUNT_ROUTES.sessions],
      ['POST', ACCOUNT_ROUTES.password, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }],
      ['POST', '/api/session/extend'],
    ] as const) {
      const res = await ctx.call(client, method, url, payload);
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ errorMessage: 'Not_Logged_In' });
    }
    // The second factor cannot be given again to skip the change.
    const again = await ctx.call(client, 'POST', '/api/auth/mfa', {
      code: await currentTotp(TOTP_SECRET, ctx.clock.now()),
    });
    expect(again.json()).toEqual({ errorMessage: 'Mfa_Not_Pending' });
  });

  it('the password alone never reaches the change: 401 Mfa_Not_Pending without both factors (or once logged in)', async () => {
    ctx.clock.advance(31_000);
    const user = await ctx.createUser(200 * DAY);
    const change = (client: Client) =>
      ctx.call(client, 'POST', '/api/auth/password-change', { newPassword: NEW_PASSWORD });

    const stranger: Client = { ip: newIp() };
    expect((await change(stranger)).json()).toEqual({ errorMessage: 'Mfa_Not_Pending' });

    const passwordOnly: Client = { ip: newIp() };
    await ctx.call(passwordOnly, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD });
    const res = await change(passwordOnly);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errorMessage: 'Mfa_Not_Pending' });
    // A wrong code leaves the login at the second factor.
    await ctx.call(passwordOnly, 'POST', '/api/auth/mfa', { code: '000000' });
    expect((await change(passwordOnly)).json()).toEqual({ errorMessage: 'Mfa_Not_Pending' });

    const active = await ctx.otherSession(user.id);
    expect((await change(active)).json()).toEqual({ errorMessage: 'Mfa_Not_Pending' });

    // Nothing changed: the old password still logs in (to the change step).
    const [row] = await ctx.app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(await ctx.app.passwordHasher.verify(row!.passwordHash, PASSWORD)).toBe(true);
  });

  it('the new password: policy, blocklist and the last 6 refused with their codes; then other sessions end, this one is logged in, a notice and audit events', async () => {
    ctx.clock.advance(31_000);
    const user = await ctx.createUser(MAX_AGE_DAYS * DAY + DAY);
    const earlier = Array.from({ length: 5 }, (_, i) => `an older passphrase number ${i} here`);
    for (const old of earlier)
      await rememberPassword(ctx.app.database.db, user.id, await ctx.app.passwordHasher.hash(old), 6);
    const elsewhere = await ctx.otherSession(user.id);
    expect(await ctx.loggedIn(elsewhere)).toBe(true);
    const client: Client = { ip: newIp() };
    expect((await ctx.login(client, user.username)).json()).toEqual(expiredAnswer);

    const change = (newPassword: string) => ctx.call(client, 'POST', '/api/auth/password-change', { newPassword });
    for (const [password, code] of [
      ['too short', 'Password_Too_Short'],
      ['polniypizdec0211', 'Password_Too_Common'],
      ['robin likes long passphrases', 'Password_Contains_Personal_Info'],
      [PASSWORD, 'Password_Reused'],
      [earlier[0]!, 'Password_Reused'],
    ]) {
      const res = await change(password!);
      expect(res.statusCode, password).toBe(400);
      expect(res.json(), password).toEqual({ errorMessage: code, fieldErrors: { newPassword: [code] } });
    }
    expect(await ctx.loggedIn(elsewhere)).toBe(true); // nothing changed yet
    expect((await ctx.call(client, 'GET', '/api/session')).json().data.mfaPending).toBe('password-change');

    const before = client.cookie;
    const ok = await change(NEW_PASSWORD);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { loggedIn: true } });
    expect(client.cookie).not.toBe(before);
    expect(await ctx.loggedIn(client)).toBe(true);
    expect(await ctx.loggedIn({ ip: newIp(), cookie: before })).toBe(false);
    expect(await ctx.loggedIn(elsewhere)).toBe(false);
    const [row] = await ctx.app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordChangedAt.getTime()).toBe(ctx.clock.now().getTime());
    const mail = await queuedEmails(ctx.app, { to: user.email });
    expect(mail.map((m) => m.template)).toEqual(['password-changed']);
    const events = await ctx.app.database.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.target, user.id), eq(auditEvents.outcome, 'success')));
    expect(events).toContainEqual({ action: 'login.mfa', details: { method: 'totp', reason: 'password_expired' } });
    expect(events).toContainEqual({
      action: 'password.changed',
      details: { reason: 'password_expired', field: 'password', sessionCount: 1 },
    });

    // The new password is young: the next login completes at the second factor.
    ctx.clock.advance(31_000);
    expect((await ctx.login({ ip: newIp() }, user.username, NEW_PASSWORD)).json()).toEqual({
      data: { loggedIn: true },
    });
  });

  it('a passkey as the second factor leads to the same change', async () => {
    ctx.clock.advance(31_000);
    const user = await ctx.createUser(MAX_AGE_DAYS * DAY - 2 * DAY);
    const owner: Client = { ip: newIp() };
    expect((await ctx.login(owner, user.username)).json()).toEqual({ data: { loggedIn: true } });
    const authenticator = new SoftAuthenticator();
    const options = (await ctx.call(owner, 'POST', ACCOUNT_ROUTES.passkeyRegistrationOptions)).json().data;
    const registered = await ctx.call(owner, 'POST', ACCOUNT_ROUTES.passkeyRegistration, {
      name: 'Laptop',
      credential: authenticator.register(options, ORIGIN),
    });
    expect(registered.statusCode).toBe(200);

    ctx.clock.advance(3 * DAY);
    const browser: Client = { ip: newIp() };
    await ctx.call(browser, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD });
    const loginOptions = (await ctx.call(browser, 'POST', ACCOUNT_ROUTES.passkeyLoginOptions)).json().data;
    const res = await ctx.call(browser, 'POST', ACCOUNT_ROUTES.passkeyLogin, {
      credential: authenticator.authenticate(loginOptions, ORIGIN),
    });
    expect(res.json()).toEqual(expiredAnswer);
    expect(await ctx.loggedIn(browser)).toBe(false);
    const ok = await ctx.call(browser, 'POST', '/api/auth/password-change', { newPassword: NEW_PASSWORD });
    expect(ok.json()).toEqual({ data: { loggedIn: true } });
    expect(await ctx.loggedIn(browser)).toBe(true);
  });

  it('the first authenticator setup of an account with an old password also leads to the change', async () => {
    ctx.clock.advance(31_000);
    const user = await ctx.createUser(MAX_AGE_DAYS * DAY, false);
    const client: Client = { ip: newIp() };
    const first = await ctx.call(client, 'POST', '/api/auth/login', { username: user.username, password: PASSWORD });
    expect(first.json()).toEqual({ data: { next: 'mfa-enroll' } });
    const started = (await ctx.call(client, 'POST', '/api/auth/mfa/enroll', {})).json().data;
    const secret = String(started.secret).replace(/\s+/g, '');
    const confirmed = await ctx.call(client, 'POST', '/api/auth/mfa/enroll', {
      code: await currentTotp(secret, ctx.clock.now()),
    });
    expect(confirmed.json()).toEqual({
      data: { recoveryCodes: expect.any(Array), ...expiredAnswer.data },
    });
    expect(await ctx.loggedIn(client)).toBe(false);
    const ok = await ctx.call(client, 'POST', '/api/auth/password-change', { newPassword: NEW_PASSWORD });
    expect(ok.json()).toEqual({ data: { loggedIn: true } });
  });
});
