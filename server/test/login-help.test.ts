import { SESSION_COOKIE } from '@portal/contracts/auth';
import {
  FORGOT_PASSWORD_PATH,
  FORGOT_USERNAME_PATH,
  LOGIN_HELP_MAX_WRONG_ANSWERS,
  RESET_PASSWORD_PATH,
  RESET_TOKEN_TTL_MS,
  SELF_REACTIVATION_PATH,
} from '@portal/contracts/login-help';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, oneTimeTokens, sessions, users } from '../src/db/schema';
import { loginHelpWork } from '../src/modules/login-help/equal-work';
import { renderEmail } from '../src/emails';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, portalHeaders, testConfig, testClock } from './helpers';
import { ANSWER, createAccount, latestEmail, outboxCount, QUESTION_KEYS, START_PASSWORD, newIp } from './factories';

const NEW_PASSWORD = 'violet canyon drum lantern seventeen';
const MINUTE = 60_000;

function post(app: FastifyInstance, url: string, payload: object, ip = newIp()) {
  return app.inject({ method: 'POST', url, payload, remoteAddress: ip, headers: portalHeaders });
}

/** The token of the newest reset link emailed to `to`. */
async function resetTokenFor(app: FastifyInstance, to: string): Promise<string> {
  const email = await latestEmail(app, to, 'password-reset-link');
  return (email!.data as { token: string }).token;
}

/** argon2 calls (hash and verify, the dummy ones included) and queued emails, counted through the module seams. */
function countWork(app: FastifyInstance) {
  const hash = vi.spyOn(app.passwordHasher, 'hash');
  const verify = vi.spyOn(app.passwordHasher, 'verify');
  const enqueue = vi.spyOn(loginHelpWork, 'enqueueEmail');
  return {
    read: () => ({ argon2: hash.mock.calls.length + verify.mock.calls.length, enqueued: enqueue.mock.calls.length }),
    reset: () => [hash, verify, enqueue].forEach((s) => s.mockClear()),
  };
}

describe('login help', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let logLines: string[];

  beforeAll(async () => {
    ({ app, logLines } = await buildTestApp({
      clock: clock.now,
      config: testConfig({ RESET_EMAILS_PER_HOUR: '3', LOGIN_HELP_ATTEMPTS_PER_MINUTE: '1000' }),
    }));
  });
  afterAll(() => app.close());
  afterEach(() => vi.restoreAllMocks());

  describe('enumeration resistance: the same status, body and work whether or not an account matched', () => {
    it('forgot username: one email with the username on a match; the same answer, no email otherwise', async () => {
      const user = await createAccount(app, 'fu.match');
      const work = countWork(app);
      const before = await outboxCount(app);
      const hit = await post(app, FORGOT_USERNAME_PATH, { email: 'FU.Match@example.com', dob: '1980-01-01' });
      const hitWork = work.read();
      const afterHit = await outboxCount(app);
      work.reset();
      const misses = [
        await post(app, FORGOT_USERNAME_PATH, { email: 'nobody@example.com', dob: '1980-01-01' }),
        await post(app, FORGOT_USERNAME_PATH, { email: user.email, dob: '1980-01-02' }),
      ];
      const missWork = work.read();

      expect(hit.statusCode).toBe(200);
      expect(hit.json()).toEqual({ data: { received: true } });
      for (const miss of misses) {
        expect(miss.statusCode).toBe(hit.statusCode);
        expect(miss.body).toBe(hit.body);
      }
      expect(afterHit - before).toBe(1);
      expect(await outboxCount(app)).toBe(afterHit);
      // Per call: the same argon2 work (none) and one outbox insert on both paths (the miss rolls its back).
      expect(hitWork).toEqual({ argon2: 0, enqueued: 1 });
      expect(missWork).toEqual({ argon2: 0, enqueued: 2 });
      // Sent to the address on file, not as typed.
      expect(await latestEmail(app, 'FU.Match@example.com', 'username-reminder')).toBeUndefined();
      const email = await latestEmail(app, user.email, 'username-reminder');
      expect(email!.data).toEqual({ usernames: ['fu.match'] });
    });

    it('forgot password: a reset link on a match; the same answer and work for unknown users, wrong emails and inactive accounts', async () => {
      const user = await createAccount(app, 'fp.match');
      await createAccount(app, 'fp.inactive', { status: 'disabled_inactive' });
      const work = countWork(app);
      const before = await outboxCount(app);
      const hit = await post(app, FORGOT_PASSWORD_PATH, {
        username: 'FP.Match',
        email: user.email,
        isInternal: false,
      });
      expect(work.read()).toEqual({ argon2: 0, enqueued: 1 });
      expect(await outboxCount(app)).toBe(before + 1);
      expect(hit.statusCode).toBe(200);
      expect(hit.json()).toEqual({ data: { next: 'check-email' } });

      const cases = [
        { username: 'fp.unknown', email: 'fp.unknown@example.com' },
        { username: 'fp.match', email: 'someone.else@example.com' },
        { username: 'fp.inactive', email: 'fp.inactive@example.com' },
      ];
      for (const c of cases) {
        work.reset();
        const miss = await post(app, FORGOT_PASSWORD_PATH, { ...c, isInternal: false });
        expect(miss.statusCode).toBe(hit.statusCode);
        expect(miss.body).toBe(hit.body);
        expect(work.read()).toEqual({ argon2: 0, enqueued: 1 });
      }
      expect(await outboxCount(app)).toBe(before + 1);
      const tokens = await app.database.db
        .select()
        .from(oneTimeTokens)
        .where(eq(oneTimeTokens.purpose, 'password-reset'));
      expect(tokens.map((t) => t.userId)).toEqual([user.id]);
    });

    it('self-reactivation step 1: a code only for a disabled or locked account whose dob matches; one answer for all', async () => {
      await createAccount(app, 'sr.enum', { status: 'disabled_inactive' });
      await createAccount(app, 'sr.active');
      const work = countWork(app);
      const before = await outboxCount(app);
      const hit = await post(app, SELF_REACTIVATION_PATH, {
        step: 'request-code',
        username: 'sr.enum',
        dob: '1980-01-01',
      });
      expect(work.read()).toEqual({ argon2: 0, enqueued: 1 });
      expect(await outboxCount(app)).toBe(before + 1);
      expect(hit.json()).toEqual({ data: { next: 'enter-code' } });
      for (const c of [
        { username: 'sr.unknown', dob: '1980-01-01' },
        { username: 'sr.enum', dob: '1980-01-02' },
        { username: 'sr.active', dob: '1980-01-01' },
      ]) {
        work.reset();
        const miss = await post(app, SELF_REACTIVATION_PATH, { step: 'request-code', ...c });
        expect(miss.statusCode).toBe(hit.statusCode);
        expect(miss.body).toBe(hit.body);
        expect(work.read()).toEqual({ argon2: 0, enqueued: 1 });
      }
      expect(await outboxCount(app)).toBe(before + 1);
    });
  });

  it('internal users are sent to the enterprise directory: no lookup, no token, no email', async () => {
    // Even a username and email that match a portal account: the internal choice never looks them up.
    const user = await createAccount(app, 'fp.internal');
    const before = await outboxCount(app);
    const res = await post(app, FORGOT_PASSWORD_PATH, {
      username: 'fp.internal',
      email: user.email,
      isInternal: true,
    });
    expect(res.json()).toEqual({ data: { next: 'enterprise-directory' } });
    expect(await outboxCount(app)).toBe(before);
  });

  it('forgot username mails the address on file; a look-alike of it is refused, nothing sent (issue 19 #6)', async () => {
    const user = await createAccount(app, 'kelly.fu');
    const before = await outboxCount(app);
    // U+212A KELVIN SIGN lower-cases onto "k": it used to match kelly.fu@example.com and get the username.
    const lookAlike = await post(app, FORGOT_USERNAME_PATH, { email: '\u212Aelly.fu@example.com', dob: '1980-01-01' });
    expect(lookAlike.statusCode).toBe(400);
    expect(lookAlike.json()).toEqual({ errorMessage: 'Validation_Failed', fieldErrors: { email: ['Email_Invalid'] } });
    expect(await outboxCount(app)).toBe(before);

    const typed = ' KELLY.FU@Example.com ';
    expect((await post(app, FORGOT_USERNAME_PATH, { email: typed, dob: '1980-01-01' })).statusCode).toBe(200);
    expect(await outboxCount(app)).toBe(before + 1);
    expect((await latestEmail(app, user.email, 'username-reminder'))!.data).toEqual({ usernames: ['kelly.fu'] });
    expect(await latestEmail(app, typed.trim(), 'username-reminder')).toBeUndefined();
    // An address registration refuses is refused here too (one email rule).
    const noDot = await post(app, FORGOT_USERNAME_PATH, { email: 'demo.user.j5@example', dob: '1980-01-01' });
    expect(noDot.json()).toEqual({ errorMessage: 'Validation_Failed', fieldErrors: { email: ['Email_Invalid'] } });
  });

  it("a date of birth after today (the app's clock) is refused before any lookup or email", async () => {
    await createAccount(app, 'dob.future', { dob: '1980-01-01' });
    const today = clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(clock.now().getTime() + 24 * 60 * MINUTE).toISOString().slice(0, 10);
    const before = await outboxCount(app);
    const future = { errorMessage: 'Validation_Failed', fieldErrors: { dob: ['Date_Of_Birth_In_Future'] } };
    for (const dob of [tomorrow, '2035-01-01']) {
      const username = await post(app, FORGOT_USERNAME_PATH, { email: 'dob.future@example.com', dob });
      expect([username.statusCode, username.json()]).toEqual([400, future]);
      const reactivation = await post(app, SELF_REACTIVATION_PATH, {
        step: 'request-code',
        username: 'dob.future',
        dob,
      });
      expect([reactivation.statusCode, reactivation.json()]).toEqual([400, future]);
    }
    expect(await outboxCount(app)).toBe(before);
    // Today itself is a date of birth like any other (the answer is the usual one).
    expect((await post(app, FORGOT_USERNAME_PATH, { email: 'dob.future@example.com', dob: today })).statusCode).toBe(
      200,
    );
  });

  it('per account: over the hourly allowance the answer stays the same and no email is sent', async () => {
    const user = await createAccount(app, 'fp.allowance');
    const before = await outboxCount(app);
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(
        await post(app, FORGOT_PASSWORD_PATH, { username: 'fp.allowance', email: user.email, isInternal: false }),
      );
    expect(new Set(answers.map((a) => `${a.statusCode} ${a.body}`)).size).toBe(1);
    // RESET_EMAILS_PER_HOUR=3 in this suite.
    expect((await outboxCount(app)) - before).toBe(3);
  });

  it('the reset link: its question, then answer + new password; single use; every session ended; a notice emailed', async () => {
    const user = await createAccount(app, 'reset.me', { failedLoginCount: 3 });
    for (let i = 0; i < 2; i++)
      await createSession(app.database.db, {
        userId: user.id,
        stage: 'active',
        now: clock.now(),
        limits: app.config.sessions,
      });
    await post(app, FORGOT_PASSWORD_PATH, { username: 'reset.me', email: user.email, isInternal: false });
    const token = await resetTokenFor(app, user.email);
    const email = await latestEmail(app, user.email, 'password-reset-link');
    expect(email!.data).toMatchObject({
      expiresAt: new Date(clock.now().getTime() + RESET_TOKEN_TTL_MS).toISOString(),
    });
    // Only the hash is stored.
    const [stored] = await app.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
    expect(stored!.tokenHash).not.toContain(token);

    // The link is built from PUBLIC_URL, the token in the fragment (never sent to a server by the browser).
    const rendered = renderEmail(app.config.publicUrl, email!.template, email!.data);
    expect(rendered.text).toContain(`http://localhost:3000/reset-password#token=${token}`);
    expect(rendered.html).toContain(`href="http://localhost:3000/reset-password#token=${token}"`);

    const question = await post(app, RESET_PASSWORD_PATH, { step: 'question', token });
    expect(question.statusCode).toBe(200);
    const { questionId } = question.json().data;
    expect(QUESTION_KEYS).toContain(questionId);
    // Asking again does not use the token up and asks the same question.
    expect((await post(app, RESET_PASSWORD_PATH, { step: 'question', token })).json()).toEqual({
      data: { questionId },
    });

    const wrong = await post(app, RESET_PASSWORD_PATH, {
      step: 'set-password',
      token,
      answer: 'red',
      newPassword: NEW_PASSWORD,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ errorMessage: 'Security_Answer_Incorrect' });
    const weak = await post(app, RESET_PASSWORD_PATH, {
      step: 'set-password',
      token,
      answer: ANSWER,
      newPassword: 'short',
    });
    expect(weak.json()).toMatchObject({
      errorMessage: 'Password_Too_Short',
      fieldErrors: { newPassword: ['Password_Too_Short'] },
    });
    const reused = await post(app, RESET_PASSWORD_PATH, {
      step: 'set-password',
      token,
      answer: ANSWER,
      newPassword: START_PASSWORD,
    });
    expect(reused.json()).toMatchObject({ errorMessage: 'Password_Reused' });

    // Answers are compared normalised (case, spaces).
    const done = await post(app, RESET_PASSWORD_PATH, {
      step: 'set-password',
      token,
      answer: '  blue harbor ',
      newPassword: NEW_PASSWORD,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ data: { passwordChanged: true } });
    expect(await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await latestEmail(app, user.email, 'password-changed')).toBeDefined();
    const [after] = await app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.failedLoginCount).toBe(0);

    // Single use: the link is spent.
    for (const payload of [
      { step: 'question', token },
      { step: 'set-password', token, answer: ANSWER, newPassword: 'another long password for later' },
    ]) {
      const again = await post(app, RESET_PASSWORD_PATH, payload);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ errorMessage: 'Reset_Token_Invalid' });
    }
    // The new password logs in; the second factor is still asked for.
    const login = await post(app, '/api/auth/login', { username: 'reset.me', password: NEW_PASSWORD });
    expect(login.json()).toEqual({ data: { next: 'mfa-enroll' } });
    expect(login.cookies.some((c) => c.name === SESSION_COOKIE)).toBe(true);
  });

  it('the link expires after 30 minutes; a newer link voids the older one', async () => {
    const user = await createAccount(app, 'reset.expiry');
    await post(app, FORGOT_PASSWORD_PATH, { username: 'reset.expiry', email: user.email, isInternal: false });
    const first = await resetTokenFor(app, user.email);
    clock.advance(MINUTE);
    await post(app, FORGOT_PASSWORD_PATH, { username: 'reset.expiry', email: user.email, isInternal: false });
    const second = await resetTokenFor(app, user.email);
    expect(second).not.toBe(first);
    expect((await post(app, RESET_PASSWORD_PATH, { step: 'question', token: first })).json()).toEqual({
      errorMessage: 'Reset_Token_Invalid',
    });
    clock.advance(RESET_TOKEN_TTL_MS - 1);
    expect((await post(app, RESET_PASSWORD_PATH, { step: 'question', token: second })).statusCode).toBe(200);
    clock.advance(1);
    expect((await post(app, RESET_PASSWORD_PATH, { step: 'question', token: second })).json()).toEqual({
      errorMessage: 'Reset_Token_Invalid',
    });
  });

  it(`wrong answers are limited: the ${LOGIN_HELP_MAX_WRONG_ANSWERS}th spends the link`, async () => {
    const user = await createAccount(app, 'reset.guess');
    await post(app, FORGOT_PASSWORD_PATH, { username: 'reset.guess', email: user.email, isInternal: false });
    const token = await resetTokenFor(app, user.email);
    const attempt = (answer: string) =>
      post(app, RESET_PASSWORD_PATH, { step: 'set-password', token, answer, newPassword: NEW_PASSWORD });
    for (let i = 1; i < LOGIN_HELP_MAX_WRONG_ANSWERS; i++)
      expect((await attempt(`guess ${i}`)).json()).toMatchObject({ errorMessage: 'Security_Answer_Incorrect' });
    expect((await attempt('last guess')).json()).toEqual({ errorMessage: 'Security_Answer_Attempts_Exceeded' });
    // Even the right answer no longer helps.
    expect((await attempt(ANSWER)).json()).toEqual({ errorMessage: 'Reset_Token_Invalid' });
  });

  describe('self-reactivation', () => {
    async function requestCode(username: string) {
      const user = (await app.database.db.select().from(users).where(eq(users.username, username)))[0]!;
      await post(app, SELF_REACTIVATION_PATH, { step: 'request-code', username, dob: '1980-01-01' });
      const email = await latestEmail(app, user.email, 'reactivation-code');
      return { user, code: (email!.data as { code: string }).code };
    }

    it('disabled for inactivity: code → question → answer → new password → active; the next login still needs the authenticator', async () => {
      await createAccount(app, 'sr.inactive', {
        status: 'disabled_inactive',
        totpSecretEncrypted: 'x',
        mfaEnrolledAt: clock.now(),
      });
      const { user, code } = await requestCode('sr.inactive');
      expect(code).toMatch(/^\d{6}$/);
      const wrongCode = code === '000000' ? '111111' : '000000';
      expect(
        (
          await post(app, SELF_REACTIVATION_PATH, { step: 'verify-code', username: 'sr.inactive', code: wrongCode })
        ).json(),
      ).toMatchObject({ errorMessage: 'Reactivation_Code_Invalid' });
      const verified = await post(app, SELF_REACTIVATION_PATH, {
        step: 'verify-code',
        username: 'SR.Inactive',
        code: `${code.slice(0, 3)} ${code.slice(3)}`,
      });
      expect(verified.statusCode).toBe(200);
      const { questionId } = verified.json().data;
      expect(verified.json()).toEqual({ data: { next: 'answer', questionId } });
      expect(QUESTION_KEYS).toContain(questionId);
      expect(
        (
          await post(app, SELF_REACTIVATION_PATH, {
            step: 'verify-answer',
            username: 'sr.inactive',
            code,
            answer: 'no',
          })
        ).json(),
      ).toMatchObject({ errorMessage: 'Security_Answer_Incorrect' });
      expect(
        (
          await post(app, SELF_REACTIVATION_PATH, {
            step: 'verify-answer',
            username: 'sr.inactive',
            code,
            answer: ANSWER,
          })
        ).json(),
      ).toEqual({ data: { next: 'new-password' } });
      const done = await post(app, SELF_REACTIVATION_PATH, {
        step: 'set-password',
        username: 'sr.inactive',
        code,
        answer: ANSWER,
        newPassword: NEW_PASSWORD,
      });
      expect(done.json()).toEqual({ data: { next: 'done' } });
      const [after] = await app.database.db.select().from(users).where(eq(users.id, user.id));
      expect(after!.status).toBe('active');
      expect(after!.mfaEnrolledAt).not.toBeNull();
      expect(await latestEmail(app, user.email, 'account-reactivated')).toBeDefined();
      // The code is spent.
      expect(
        (await post(app, SELF_REACTIVATION_PATH, { step: 'verify-code', username: 'sr.inactive', code })).json(),
      ).toMatchObject({ errorMessage: 'Reactivation_Code_Invalid' });
      const login = await post(app, '/api/auth/login', { username: 'sr.inactive', password: NEW_PASSWORD });
      expect(login.json()).toEqual({ data: { next: 'mfa' } });
    });

    it('locked and administratively disabled accounts get a code that says whom to contact; nothing changes', async () => {
      await createAccount(app, 'sr.locked', { status: 'locked' });
      await createAccount(app, 'sr.admin', { status: 'disabled_admin' });
      for (const [username, errorMessage] of [
        ['sr.locked', 'Reactivation_Locked_Contact_Help_Desk'],
        ['sr.admin', 'Reactivation_Disabled_Contact_Administrator'],
      ] as const) {
        const { user, code } = await requestCode(username);
        const res = await post(app, SELF_REACTIVATION_PATH, { step: 'verify-code', username, code });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ errorMessage });
        const set = await post(app, SELF_REACTIVATION_PATH, {
          step: 'set-password',
          username,
          code,
          answer: ANSWER,
          newPassword: NEW_PASSWORD,
        });
        expect(set.json()).toEqual({ errorMessage });
        const [after] = await app.database.db.select().from(users).where(eq(users.id, user.id));
        expect(after!.status).toBe(user.status);
      }
    });

    it(`wrong codes are limited: after ${LOGIN_HELP_MAX_WRONG_ANSWERS} the right one no longer works`, async () => {
      await createAccount(app, 'sr.guess', { status: 'disabled_inactive' });
      const { code } = await requestCode('sr.guess');
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < LOGIN_HELP_MAX_WRONG_ANSWERS; i++)
        await post(app, SELF_REACTIVATION_PATH, { step: 'verify-code', username: 'sr.guess', code: wrong });
      expect(
        (await post(app, SELF_REACTIVATION_PATH, { step: 'verify-code', username: 'sr.guess', code })).json(),
      ).toMatchObject({ errorMessage: 'Reactivation_Code_Invalid' });
    });
  });

  it('audits every attempt, and no DOB, answer, code, token or password reaches the audit trail or the log', async () => {
    const user = await createAccount(app, 'audit.me', { status: 'disabled_inactive', dob: '1971-03-04' });
    await post(app, FORGOT_USERNAME_PATH, { email: user.email, dob: '1971-03-04' });
    await post(app, SELF_REACTIVATION_PATH, { step: 'request-code', username: 'audit.me', dob: '1971-03-04' });
    const code = ((await latestEmail(app, user.email, 'reactivation-code'))!.data as { code: string }).code;
    await post(app, SELF_REACTIVATION_PATH, {
      step: 'set-password',
      username: 'audit.me',
      code,
      answer: ANSWER,
      newPassword: NEW_PASSWORD,
    });
    const events = await app.database.db.select().from(auditEvents).where(eq(auditEvents.target, user.id));
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['login-help.forgot-username', 'account.reactivation']),
    );
    const everything = JSON.stringify(await app.database.db.select().from(auditEvents)) + logLines.join('\n');
    for (const secret of ['1971-03-04', code, 'Blue  Harbor', NEW_PASSWORD]) expect(everything).not.toContain(secret);
  });

  it('per client: the N+1th attempt gets 429 with Retry-After', async () => {
    const limited = await buildTestApp({ config: testConfig({ LOGIN_HELP_ATTEMPTS_PER_MINUTE: '3' }) });
    try {
      for (const url of [FORGOT_USERNAME_PATH, FORGOT_PASSWORD_PATH, RESET_PASSWORD_PATH, SELF_REACTIVATION_PATH]) {
        const ip = newIp();
        const payload = { nothing: 'valid' };
        for (let i = 0; i < 3; i++) expect((await post(limited.app, url, payload, ip)).statusCode).toBe(400);
        const over = await post(limited.app, url, payload, ip);
        expect(over.statusCode).toBe(429);
        expect(over.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
        expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
        // Another client is not affected.
        expect((await post(limited.app, url, payload)).statusCode).toBe(400);
      }
    } finally {
      await limited.app.close();
    }
  });
});
