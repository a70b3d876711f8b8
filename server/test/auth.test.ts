import { RECOVERY_CODE_COUNT, SESSION_COOKIE, SESSION_COOKIE_SECURE } from '@portal/contracts/auth';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { seedDemoData } from '../src/db/demo-data';
import { auditEvents, sessions, users } from '../src/db/schema';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS, seedDemoAccounts } from '../src/modules/auth/demo-accounts';
import { currentTotp } from '../src/identity/mfa/totp';
import { rowsOf } from '../src/platform/db-executor';
import { passwordProblems } from '../src/identity/passwords/policy';
import { endAllSessions, hashSessionId } from '../src/identity/sessions/store';
import { buildTestApp, callAs, testConfig, type TestClient, testClock } from './helpers';
import { createPerson, type PersonValues, TOTP_SECRET, newIp, queuedEmails } from './factories';

const PASSWORD = 'correct horse battery staple orbit';
const MINUTE = 60_000;

/** A clock the tests move by hand. */
type Client = TestClient;

function sessionCookie(res: { cookies: { name: string; value: string }[] }): string | undefined {
  return res.cookies.find((c) => c.name === SESSION_COOKIE || c.name === SESSION_COOKIE_SECURE)?.value || undefined;
}

const call = callAs;

function createUser(app: FastifyInstance, username: string, extra: PersonValues = {}) {
  return createPerson(app, { username, password: PASSWORD, ...extra });
}

/** A user already enrolled with a known TOTP secret. */
async function createEnrolledUser(app: FastifyInstance, username: string, extra: PersonValues = {}) {
  const secret = TOTP_SECRET;
  const user = await createUser(app, username, { totpSecret: secret, ...extra });
  return { user, secret };
}

async function loginFully(app: FastifyInstance, client: Client, username: string, secret: string, now: Date) {
  expect((await call(app, client, 'POST', '/api/auth/login', { username, password: PASSWORD })).json()).toEqual({
    data: { next: 'mfa' },
  });
  const res = await call(app, client, 'POST', '/api/auth/mfa', { code: await currentTotp(secret, now) });
  expect(res.json()).toEqual({ data: { loggedIn: true } });
}

async function auditActions(app: FastifyInstance, target: string) {
  const rows = await app.database.db.select().from(auditEvents).where(eq(auditEvents.target, target));
  return rows.map((r) => r.action);
}

describe('login, MFA and sessions', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let logLines: string[];

  beforeAll(async () => {
    ({ app, logLines } = await buildTestApp({
      clock: clock.now,
      // The browser's prompt comes before the idle limit (the configuration refuses it otherwise).
      config: testConfig({
        SESSION_IDLE_MS: String(10 * MINUTE),
        SESSION_PROMPT_BEFORE_IDLE_MS: String(5 * MINUTE),
        SESSION_ABSOLUTE_MS: String(60 * MINUTE),
      }),
    }));
  });
  afterAll(() => app.close());

  it('first login enrols the authenticator: QR code and key, confirm with a code, 10 recovery codes; the id changes at each step', async () => {
    const user = await createUser(app, 'enrol.me');
    const client: Client = { ip: newIp() };
    const login = await call(app, client, 'POST', '/api/auth/login', { username: 'Enrol.Me', password: PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ data: { next: 'mfa-enroll' } });
    const preMfa = client.cookie!;
    expect(Buffer.from(preMfa, 'base64url').length).toBeGreaterThanOrEqual(16);
    // Only the hash is stored.
    const stored = await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored.map((s) => s.idHash)).toEqual([hashSessionId(preMfa)]);

    expect((await call(app, client, 'GET', '/api/session')).json()).toMatchObject({
      data: { loggedIn: false, mfaPending: 'mfa-enroll' },
    });
    // The pre-MFA session grants nothing else.
    expect((await call(app, client, 'POST', '/api/session/extend')).json()).toEqual({ errorMessage: 'Not_Logged_In' });
    expect((await call(app, client, 'POST', '/api/auth/mfa', { code: '123456' })).json()).toEqual({
      errorMessage: 'Mfa_Not_Pending',
    });
    expect((await call(app, client, 'POST', '/api/auth/mfa/enroll', { code: '123456' })).json()).toEqual({
      errorMessage: 'Mfa_Enroll_Not_Started',
    });

    const start = await call(app, client, 'POST', '/api/auth/mfa/enroll');
    expect(start.statusCode).toBe(200);
    const { otpauthUrl, secret, qrSvg } = start.json().data;
    expect(qrSvg).toMatch(/^<svg/);
    const plainSecret = secret.replace(/ /g, '');
    expect(plainSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${plainSecret}`);

    // The first setup's refusal does not mention the recovery codes the user does not have yet.
    expect((await call(app, client, 'POST', '/api/auth/mfa/enroll', { code: '000000' })).json()).toEqual({
      errorMessage: 'Mfa_Setup_Code_Invalid',
    });
    // Typed as authenticator apps show it: "123 456".
    const shown = await currentTotp(plainSecret, clock.now());
    const confirm = await call(app, client, 'POST', '/api/auth/mfa/enroll', {
      code: `${shown.slice(0, 3)} ${shown.slice(3)}`,
    });
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes } = confirm.json().data;
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    expect(client.cookie).not.toBe(preMfa);
    const state = (await call(app, client, 'GET', '/api/session')).json().data;
    expect(state).toMatchObject({ loggedIn: true, username: 'enrol.me', displayName: 'Pat Tester' });
    // The pre-MFA id no longer names a session.
    expect((await call(app, { ip: client.ip, cookie: preMfa }, 'GET', '/api/session')).json()).toEqual({
      data: { loggedIn: false },
    });
    const [row] = await app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.totpSecretEncrypted).not.toContain(plainSecret);
    expect(await auditActions(app, user.id)).toEqual(
      expect.arrayContaining(['login.password', 'mfa.enrol_started', 'mfa.enrolled']),
    );
  });

  it('login with a TOTP code rotates the id again; each code is accepted once; logout destroys the session', async () => {
    const { user, secret } = await createEnrolledUser(app, 'totp.user');
    const client: Client = { ip: newIp() };
    const before = 'an-old-cookie-from-before-login';
    client.cookie = before;
    await call(app, client, 'POST', '/api/auth/login', { username: 'totp.user', password: PASSWORD });
    const preMfa = client.cookie;
    expect(preMfa).not.toBe(before);
    const code = await currentTotp(secret, clock.now());
    expect((await call(app, client, 'POST', '/api/auth/mfa', { code })).json()).toEqual({ data: { loggedIn: true } });
    const loggedIn = client.cookie!;
    expect(loggedIn).not.toBe(preMfa);
    expect((await call(app, client, 'POST', '/api/session/extend')).statusCode).toBe(200);

    // The same code again, in a second login within the same 30 seconds: refused.
    const other: Client = { ip: newIp() };
    await call(app, other, 'POST', '/api/auth/login', { username: 'totp.user', password: PASSWORD });
    expect((await call(app, other, 'POST', '/api/auth/mfa', { code })).json()).toEqual({
      errorMessage: 'Mfa_Code_Invalid',
    });
    // The next step's code works, typed with a hyphen ("123-456").
    clock.advance(30_000);
    const next = await currentTotp(secret, clock.now());
    expect(
      (await call(app, other, 'POST', '/api/auth/mfa', { code: `${next.slice(0, 3)}-${next.slice(3)}` })).json(),
    ).toEqual({ data: { loggedIn: true } });

    const logout = await call(app, client, 'POST', '/api/auth/logout');
    expect(logout.json()).toEqual({ data: { loggedIn: false } });
    expect(client.cookie).toBeUndefined();
    const reused = await call(app, { ip: client.ip, cookie: loggedIn }, 'POST', '/api/session/extend');
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual({ errorMessage: 'Session_Expired' });
    expect(await auditActions(app, user.id)).toEqual(
      expect.arrayContaining(['login.mfa', 'login.mfa_failed', 'logout']),
    );
  });

  it('logout is CSRF-protected like every state-changing call', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/logout', payload: {} });
    expect(res.statusCode).toBe(403);
  });

  it('a recovery code works once, in place of the TOTP code', async () => {
    const user = await createUser(app, 'recovery.user');
    const client: Client = { ip: newIp() };
    await call(app, client, 'POST', '/api/auth/login', { username: 'recovery.user', password: PASSWORD });
    const secret = (await call(app, client, 'POST', '/api/auth/mfa/enroll')).json().data.secret.replace(/ /g, '');
    const codes: string[] = (
      await call(app, client, 'POST', '/api/auth/mfa/enroll', { code: await currentTotp(secret, clock.now()) })
    ).json().data.recoveryCodes;
    await call(app, client, 'POST', '/api/auth/logout');

    await call(app, client, 'POST', '/api/auth/login', { username: 'recovery.user', password: PASSWORD });
    // Typed in lower case without dashes: still the code.
    const typed = codes[3]!.toLowerCase().replace(/-/g, ' ');
    expect((await call(app, client, 'POST', '/api/auth/mfa', { code: typed })).json()).toEqual({
      data: { loggedIn: true },
    });
    await call(app, client, 'POST', '/api/auth/logout');

    await call(app, client, 'POST', '/api/auth/login', { username: 'recovery.user', password: PASSWORD });
    expect((await call(app, client, 'POST', '/api/auth/mfa', { code: codes[3]! })).json()).toEqual({
      errorMessage: 'Mfa_Code_Invalid',
    });
    expect((await call(app, client, 'POST', '/api/auth/mfa', { code: codes[4]! })).json()).toEqual({
      data: { loggedIn: true },
    });
    const audit = await app.database.db.select().from(auditEvents).where(eq(auditEvents.target, user.id));
    expect(audit.filter((e) => e.action === 'login.mfa').map((e) => e.details?.method)).toEqual([
      'recovery_code',
      'recovery_code',
    ]);
  });

  it('10 wrong codes end the pending login: the password must be given again', async () => {
    await createEnrolledUser(app, 'guesser');
    const client: Client = { ip: newIp() };
    await call(app, client, 'POST', '/api/auth/login', { username: 'guesser', password: PASSWORD });
    for (let i = 0; i < 10; i++) {
      expect((await call(app, client, 'POST', '/api/auth/mfa', { code: String(100000 + i) })).json()).toEqual({
        errorMessage: 'Mfa_Code_Invalid',
      });
    }
    const after = await call(app, client, 'POST', '/api/auth/mfa', { code: '999999' });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ errorMessage: 'Session_Expired' });
  });

  it('unknown user, wrong password, and a wrong password for locked and disabled accounts get the same status and body after one password verification each', async () => {
    await createUser(app, 'uniform.ok');
    await createUser(app, 'uniform.locked', { lockedUntil: new Date(clock.now().getTime() + 30 * MINUTE) });
    await createUser(app, 'uniform.disabled', { status: 'disabled_inactive' });
    const verify = vi.spyOn(app.passwordHasher, 'verify');
    const answers = [];
    for (const [username, password] of [
      ['nobody.here', PASSWORD],
      ['uniform.ok', 'wrong password entirely here'],
      ['uniform.locked', 'wrong password entirely here'],
      ['uniform.disabled', 'wrong password entirely here'],
    ] as const) {
      verify.mockClear();
      const res = await call(app, { ip: newIp() }, 'POST', '/api/auth/login', { username, password });
      expect(verify).toHaveBeenCalledTimes(1);
      answers.push({ status: res.statusCode, body: res.body, cookie: sessionCookie(res) });
    }
    verify.mockRestore();
    expect(answers[0]).toEqual({
      status: 401,
      body: JSON.stringify({ errorMessage: 'Login_Failed' }),
      cookie: undefined,
    });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });

  it('an account whose email is not verified yet is told so after the right password, and only then', async () => {
    const user = await createUser(app, 'not.verified', { status: 'pending' });
    const verify = vi.spyOn(app.passwordHasher, 'verify');
    const right = await call(app, { ip: newIp() }, 'POST', '/api/auth/login', {
      username: 'not.verified',
      password: PASSWORD,
    });
    expect(verify).toHaveBeenCalledTimes(1);
    verify.mockRestore();
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({ errorMessage: 'Email_Not_Verified' });
    expect(sessionCookie(right)).toBeUndefined();
    // A wrong password learns nothing about the account's state.
    const wrong = await call(app, { ip: newIp() }, 'POST', '/api/auth/login', {
      username: 'not.verified',
      password: 'wrong password entirely here',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ errorMessage: 'Login_Failed' });
    const audit = await app.database.db.select().from(auditEvents).where(eq(auditEvents.target, user.id));
    expect(audit.map((e) => [e.action, e.details?.reason])).toEqual(
      expect.arrayContaining([['login.failed', 'email_not_verified']]),
    );
  });

  it('5 failures within 120 minutes lock the account for 60 minutes, with an audit event and an email; earlier failures outside the window do not count', async () => {
    const user = await createUser(app, 'lock.me');
    const fail = () =>
      call(app, { ip: newIp() }, 'POST', '/api/auth/login', {
        username: 'lock.me',
        password: 'not the password at all',
      });
    const tryRight = () =>
      call(app, { ip: newIp() }, 'POST', '/api/auth/login', { username: 'lock.me', password: PASSWORD });
    for (let i = 0; i < 4; i++) await fail();
    clock.advance(121 * MINUTE); // the window has passed: these four no longer count
    for (let i = 0; i < 4; i++) {
      await fail();
      clock.advance(20 * MINUTE);
    }
    expect((await tryRight()).statusCode).toBe(200); // 4 in the window: not locked; a success resets the count
    for (let i = 0; i < 4; i++) await fail();
    expect(await auditActions(app, user.id)).not.toContain('account.locked');
    await fail(); // the fifth
    expect(await auditActions(app, user.id)).toContain('account.locked');
    const mail = await queuedEmails(app, { to: 'lock.me@example.com' });
    expect(mail.map((m) => m.template)).toEqual(['account-locked']);

    clock.advance(59 * MINUTE);
    // The right password learns of the lock and when it ends; a wrong one does not.
    const locked = await tryRight();
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toEqual({ errorMessage: 'Account_Locked' });
    expect(locked.headers['retry-after']).toBe('60');
    expect((await fail()).json()).toEqual({ errorMessage: 'Login_Failed' });
    clock.advance(1 * MINUTE);
    expect((await tryRight()).json()).toEqual({ data: { next: 'mfa-enroll' } });
  });

  it('20 login attempts per minute per client address, then 429 Too_Many_Requests with Retry-After', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) {
      expect(
        (await call(app, { ip }, 'POST', '/api/auth/login', { username: 'throttled', password: 'x' })).statusCode,
      ).toBe(401);
    }
    const over = await call(app, { ip }, 'POST', '/api/auth/login', { username: 'throttled', password: 'x' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ errorMessage: 'Too_Many_Requests' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not affected.
    expect(
      (await call(app, { ip: newIp() }, 'POST', '/api/auth/login', { username: 'throttled', password: 'x' }))
        .statusCode,
    ).toBe(401);
  });

  it('a NUL in the username or password is a 400 Validation_Failed, not a database error', async () => {
    for (const body of [
      { username: 'a\u0000b', password: PASSWORD },
      { username: 'totp.user', password: 'pass\u0000word' },
    ]) {
      const res = await call(app, { ip: newIp() }, 'POST', '/api/auth/login', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errorMessage: 'Validation_Failed' });
    }
  });

  it('idle limit: reading the state does not extend it, extend does; past it the session is expired', async () => {
    const { secret } = await createEnrolledUser(app, 'idle.user');
    const client: Client = { ip: newIp() };
    clock.advance(30_000);
    await loginFully(app, client, 'idle.user', secret, clock.now());
    expect((await call(app, client, 'GET', '/api/session')).json().data).toMatchObject({
      loggedIn: true,
      idleSecondsLeft: 600,
      absoluteSecondsLeft: 3600,
    });
    clock.advance(4 * MINUTE);
    expect((await call(app, client, 'GET', '/api/session')).json().data.idleSecondsLeft).toBe(360);
    expect((await call(app, client, 'POST', '/api/session/extend')).json().data.idleSecondsLeft).toBe(600);
    clock.advance(10 * MINUTE - 1000);
    expect((await call(app, client, 'GET', '/api/session')).json().data).toMatchObject({
      loggedIn: true,
      idleSecondsLeft: 1,
    });
    clock.advance(1000);
    const expired = await call(app, client, 'POST', '/api/session/extend');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ errorMessage: 'Session_Expired' });
  });

  it('absolute limit: activity cannot keep a session past it', async () => {
    const { secret } = await createEnrolledUser(app, 'absolute.user');
    const client: Client = { ip: newIp() };
    clock.advance(30_000);
    await loginFully(app, client, 'absolute.user', secret, clock.now());
    for (let elapsed = 0; elapsed < 55 * MINUTE; elapsed += 5 * MINUTE) {
      clock.advance(5 * MINUTE);
      expect((await call(app, client, 'POST', '/api/session/extend')).statusCode).toBe(200);
    }
    expect((await call(app, client, 'GET', '/api/session')).json().data).toMatchObject({
      absoluteSecondsLeft: 300,
      idleSecondsLeft: 300,
    });
    clock.advance(5 * MINUTE);
    expect((await call(app, client, 'POST', '/api/session/extend')).json()).toEqual({
      errorMessage: 'Session_Expired',
    });
  });

  it('endAllSessions ends every session of the user (or every other one)', async () => {
    const { user, secret } = await createEnrolledUser(app, 'many.sessions');
    const clients: Client[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(30_000);
      const client = { ip: newIp() };
      await loginFully(app, client, 'many.sessions', secret, clock.now());
      clients.push(client);
    }
    expect(await endAllSessions(app.database.db, user.id, { exceptIdHash: hashSessionId(clients[0]!.cookie!) })).toBe(
      2,
    );
    expect((await call(app, clients[1]!, 'POST', '/api/session/extend')).json()).toEqual({
      errorMessage: 'Session_Expired',
    });
    expect((await call(app, clients[0]!, 'POST', '/api/session/extend')).statusCode).toBe(200);
    expect(await endAllSessions(app.database.db, user.id)).toBe(1);
    expect((await call(app, clients[0]!, 'POST', '/api/session/extend')).json()).toEqual({
      errorMessage: 'Session_Expired',
    });
  });

  it('a login rehashes a password whose hash was made with other argon2 parameters', async () => {
    const { secret } = await createEnrolledUser(app, 'old.hash');
    const { PasswordHasher } = await import('../src/platform/password-hashing');
    const oldHash = await new PasswordHasher({ memoryKib: 19_456, iterations: 3 }).hash(PASSWORD);
    await app.database.db.update(users).set({ passwordHash: oldHash }).where(eq(users.username, 'old.hash'));
    clock.advance(30_000);
    await loginFully(app, { ip: newIp() }, 'old.hash', secret, clock.now());
    const [row] = await app.database.db.select().from(users).where(eq(users.username, 'old.hash'));
    expect(row!.passwordHash).not.toBe(oldHash);
    expect(app.passwordHasher.needsRehash(row!.passwordHash)).toBe(false);
    expect(await app.passwordHasher.verify(row!.passwordHash, PASSWORD)).toBe(true);
  });

  it('no password, code, recovery code or TOTP secret reaches the audit table or the log after a full login cycle', async () => {
    const username = 'audit.grep';
    await createUser(app, username);
    const client: Client = { ip: newIp() };
    const secrets: string[] = [PASSWORD, 'a wrong password for the grep'];
    await call(app, client, 'POST', '/api/auth/login', { username, password: secrets[1] });
    await call(app, client, 'POST', '/api/auth/login', { username, password: PASSWORD });
    const start = (await call(app, client, 'POST', '/api/auth/mfa/enroll')).json().data;
    const totpSecret = start.secret.replace(/ /g, '');
    secrets.push(totpSecret, start.secret);
    clock.advance(30_000);
    const enrolCode = await currentTotp(totpSecret, clock.now());
    const codes: string[] = (await call(app, client, 'POST', '/api/auth/mfa/enroll', { code: enrolCode })).json().data
      .recoveryCodes;
    await call(app, client, 'POST', '/api/auth/logout');
    clock.advance(30_000);
    const loginCode = await currentTotp(totpSecret, clock.now());
    await call(app, client, 'POST', '/api/auth/login', { username, password: PASSWORD });
    await call(app, client, 'POST', '/api/auth/mfa', { code: '000001' });
    await call(app, client, 'POST', '/api/auth/mfa', { code: loginCode });
    await call(app, client, 'POST', '/api/auth/logout');
    await call(app, client, 'POST', '/api/auth/login', { username, password: PASSWORD });
    await call(app, client, 'POST', '/api/auth/mfa', { code: codes[0]! });
    secrets.push(enrolCode, loginCode, '000001', ...codes, ...codes.map((c) => c.replace(/-/g, '')));

    const table = rowsOf<{ dump: string }>(
      await app.database.db.execute(
        sql`select coalesce(string_agg(audit_events::text, ' '), '') as dump from audit_events`,
      ),
    )[0]!.dump;
    expect(table).toContain('login.mfa');
    const logs = logLines.join('\n');
    for (const secret of secrets) {
      // A 6-digit code could occur by chance inside a timestamp or duration: only a standalone number counts.
      const pattern = new RegExp(`(?<![\\d.])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d.])`);
      expect(table).not.toMatch(pattern);
      expect(logs).not.toMatch(pattern);
    }
  });
  it('a password typed into the username field never reaches the audit table: unknown names leave a keyed fingerprint', async () => {
    const typedAsUsername = 'Tr0ub4dor&3 my real password';
    const client: Client = { ip: newIp() };
    for (const username of [typedAsUsername, `  ${typedAsUsername.toUpperCase()} `, 'nobody.else']) {
      const res = await call(app, client, 'POST', '/api/auth/login', { username, password: 'whatever it is here' });
      expect(res.statusCode).toBe(401);
    }
    const rows = await app.database.db
      .select({ target: auditEvents.target })
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'login.failed' and ${auditEvents.ip} = ${client.ip}`)
      .orderBy(auditEvents.at);
    expect(rows).toHaveLength(3);
    const dump = JSON.stringify(rows).toLowerCase();
    expect(dump).not.toContain('tr0ub4dor');
    expect(dump).not.toContain('nobody');
    // The same name (whatever its case and spaces) groups under one fingerprint; another name gets another.
    expect(rows[0]!.target).toMatch(/^unknown:[0-9a-f]{16}$/);
    expect(rows[1]!.target).toBe(rows[0]!.target);
    expect(rows[2]!.target).not.toBe(rows[0]!.target);
  });
});

describe('session cookie', () => {
  it('over HTTP: HttpOnly, SameSite=Lax, Path=/, no Secure', async () => {
    const { app } = await buildTestApp();
    try {
      await createUser(app, 'cookie.user');
      const res = await call(app, { ip: newIp() }, 'POST', '/api/auth/login', {
        username: 'cookie.user',
        password: PASSWORD,
      });
      const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie.secure).toBeFalsy();
      expect(cookie.domain).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('over HTTPS: the __Host- prefix and Secure', async () => {
    const { app } = await buildTestApp({ config: testConfig({ PUBLIC_URL: 'https://portal.example.com' }) });
    try {
      await createUser(app, 'secure.user');
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-portal-request': '1', origin: 'https://portal.example.com' },
        payload: { username: 'secure.user', password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE_SECURE)!;
      expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
      expect(cookie.domain).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe('two instances on one database', () => {
  it('a session started on one instance is served by the other', async () => {
    const { app: first, database, config } = await buildTestApp();
    const second = await buildApp({ config, database, logStream: new PassThrough() });
    try {
      const { secret } = await createEnrolledUser(first, 'roaming.user');
      const client: Client = { ip: newIp() };
      await call(first, client, 'POST', '/api/auth/login', { username: 'roaming.user', password: PASSWORD });
      expect((await call(second, client, 'POST', '/api/auth/mfa', { code: await currentTotp(secret) })).json()).toEqual(
        { data: { loggedIn: true } },
      );
      expect((await call(first, client, 'POST', '/api/session/extend')).statusCode).toBe(200);
      await call(second, client, 'POST', '/api/auth/logout');
      expect((await call(first, { ip: client.ip, cookie: client.cookie }, 'GET', '/api/session')).json()).toEqual({
        data: { loggedIn: false },
      });
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('demo accounts', () => {
  it('seeded once with the demo data; the enrolled one logs in with demo:totp codes; the locked and inactive ones cannot', async () => {
    const { app } = await buildTestApp();
    try {
      expect(passwordProblems(DEMO_PASSWORD, ['demo', 'admin', 'user', 'example.com'])).toEqual([]);
      await seedDemoData(app.database.db, { locations: 20, today: '2026-11-22' });
      const created = await seedDemoAccounts(app.database.db, app.passwordHasher, app.secrets.encryptionKey);
      expect(created).toBeGreaterThanOrEqual(7);
      expect(await seedDemoAccounts(app.database.db, app.passwordHasher, app.secrets.encryptionKey)).toBe(0);
      const links = rowsOf<{ username: string; role: string }>(
        await app.database.db.execute(
          sql`select u.username, ul.role from user_locations ul join users u on u.id = ul.user_id order by u.username`,
        ),
      );
      expect(links).toEqual(
        expect.arrayContaining([
          { username: 'demo.admin.j5', role: 'administrator' },
          { username: 'demo.user.j8', role: 'user' },
        ]),
      );
      // Two end users wait for demo.admin.j5's approval of its location (the reseed adds no second request).
      const pending = rowsOf<{ username: string; admin: string }>(
        await app.database.db.execute(
          sql`select u.username, a.username as admin from access_requests r join users u on u.id = r.user_id
              join user_locations ul on ul.location_id = r.location_id and ul.role = 'administrator'
              join users a on a.id = ul.user_id where r.status = 'pending' order by u.username`,
        ),
      );
      expect(pending).toEqual([
        { username: 'demo.wait.1', admin: 'demo.admin.j5' },
        { username: 'demo.wait.2', admin: 'demo.admin.j5' },
      ]);

      const client: Client = { ip: newIp() };
      const login = await call(app, client, 'POST', '/api/auth/login', {
        username: 'demo.admin.j5',
        password: DEMO_PASSWORD,
      });
      expect(login.json()).toEqual({ data: { next: 'mfa' } });
      const code = await currentTotp(DEMO_TOTP_SECRETS['demo.admin.j5']!);
      expect((await call(app, client, 'POST', '/api/auth/mfa', { code })).json()).toEqual({ data: { loggedIn: true } });
      for (const [username, code] of [
        ['demo.locked', 'Account_Locked'],
        ['demo.inactive', 'Account_Inactive'],
      ]) {
        expect(
          (await call(app, { ip: newIp() }, 'POST', '/api/auth/login', { username, password: DEMO_PASSWORD })).json(),
        ).toEqual({ errorMessage: code });
      }
      expect(
        (
          await call(app, { ip: newIp() }, 'POST', '/api/auth/login', {
            username: 'demo.user.j8',
            password: DEMO_PASSWORD,
          })
        ).json(),
      ).toEqual({ data: { next: 'mfa-enroll' } });
    } finally {
      await app.close();
    }
  });
});
