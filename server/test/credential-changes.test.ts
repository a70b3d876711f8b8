import { ACCOUNT_ROUTES, passkeyRoute } from '@portal/contracts/account';
import { FORGOT_PASSWORD_PATH, RESET_PASSWORD_PATH } from '@portal/contracts/login-help';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, oneTimeTokens, passkeys, users } from '../src/db/schema';
import { encryptSecret } from '../src/platform/encryption';
import { renderEmail } from '../src/emails';
import { currentTotp } from '../src/identity/mfa/totp';
import {
  buildTestApp,
  callAs,
  logInWithTotp,
  otherSession as otherSessionOf,
  type TestClient,
  testClock,
  longSessionsConfig,
} from './helpers';
import { ANSWER, createAccount, latestEmail, START_PASSWORD, TOTP_SECRET, newIp, queuedEmails } from './factories';
import { SoftAuthenticator } from './support/soft-authenticator';

/**
 * Issue 19, findings 3, 4, 5 and 7 and the takeover chain: every credential change (and "sign out everywhere else")
 * ends what it should — other sessions, outstanding emailed links and codes, pending email changes, planted passkeys —
 * and internal accounts never get a portal-managed password (docs/requirements/session.md#credential-changes,
 * docs/decisions/0030-passkeys-and-credential-changes.md).
 */

const NEW_PASSWORD = 'violet canyon drum lantern seventeen';
const ORIGIN = 'http://localhost:3000';
const KNOWN_ANSWERS = [
  { questionId: 'first-car', answer: 'Attacker knows this' },
  { questionId: 'first-school', answer: 'Attacker knows this too' },
  { questionId: 'childhood-nickname', answer: 'And this one as well' },
];

describe('credential changes end what they should', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let userCounter = 0;

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      clock: clock.now,
      config: longSessionsConfig({ LOGIN_HELP_ATTEMPTS_PER_MINUTE: '1000' }),
    }));
  });
  afterAll(() => app.close());

  const call = (client: TestClient, method: 'GET' | 'POST', url: string, payload?: object) =>
    callAs(app, client, method, url, payload);

  /** An active account with the start password, three security answers (`ANSWER`) and an authenticator (`TOTP_SECRET`). */
  async function createUser(extra: Partial<typeof users.$inferInsert> = {}) {
    return createAccount(app, `cred.user${++userCounter}`, {
      totpSecretEncrypted: encryptSecret(app.secrets.encryptionKey, TOTP_SECRET),
      mfaEnrolledAt: clock.now(),
      ...extra,
    });
  }

  const login = (client: TestClient, username: string, password = START_PASSWORD, secret = TOTP_SECRET) =>
    logInWithTotp(app, clock, client, { username, password, secret });
  const otherSession = (userId: string) => otherSessionOf(app, clock, userId, { ip: newIp() });

  const loggedIn = async (client: TestClient) =>
    (await call(client, 'GET', '/api/session')).json().data.loggedIn as boolean;

  /** The data of the newest email of `template` to `to`. */
  async function emailData<T = Record<string, unknown>>(to: string, template: string): Promise<T | undefined> {
    return (await latestEmail(app, to, template))?.data as T | undefined;
  }
  const templatesTo = async (to: string) => (await queuedEmails(app, { to })).map((m) => m.template);
  const textOf = async (to: string, template: string) =>
    renderEmail(ORIGIN, template, (await latestEmail(app, to, template))!.data).text;
  const emailOf = async (id: string) =>
    (await app.database.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email;
  const activity = async (client: TestClient) =>
    (await call(client, 'GET', ACCOUNT_ROUTES.activity)).json().data.items.map((i: { action: string }) => i.action);

  async function askResetLink(username: string, email: string) {
    const res = await call({ ip: newIp() }, 'POST', FORGOT_PASSWORD_PATH, { username, email, isInternal: false });
    expect(res.json()).toEqual({ data: { next: 'check-email' } });
  }
  const resetQuestion = (token: string) =>
    call({ ip: newIp() }, 'POST', RESET_PASSWORD_PATH, { step: 'question', token });

  async function askEmailChange(client: TestClient, address: string): Promise<string> {
    const res = await call(client, 'POST', ACCOUNT_ROUTES.email, { email: address });
    expect(res.json()).toEqual({ data: { requested: true } });
    return (await emailData<{ token: string }>(address, 'email-change-link'))!.token;
  }
  const confirmEmail = (token: string) => call({ ip: newIp() }, 'POST', ACCOUNT_ROUTES.emailConfirm, { token });

  const changePassword = (client: TestClient, currentPassword: string, newPassword: string) =>
    call(client, 'POST', ACCOUNT_ROUTES.password, { currentPassword, newPassword });

  /** Replaces the authenticator on My account; answers the new secret. */
  async function resetAuthenticator(client: TestClient): Promise<string> {
    const start = await call(client, 'POST', ACCOUNT_ROUTES.mfaReset, {});
    const secret = (start.json().data.secret as string).replace(/\s+/g, '');
    const done = await call(client, 'POST', ACCOUNT_ROUTES.mfaReset, { code: await currentTotp(secret, clock.now()) });
    expect(done.statusCode).toBe(200);
    return secret;
  }

  /** Registers a passkey on `client`'s session; answers the authenticator holding it and the passkey's id. */
  async function addPasskey(client: TestClient, name: string) {
    const authenticator = new SoftAuthenticator();
    const options = (await call(client, 'POST', ACCOUNT_ROUTES.passkeyRegistrationOptions)).json().data;
    const res = await call(client, 'POST', ACCOUNT_ROUTES.passkeyRegistration, {
      name,
      credential: authenticator.register(options, ORIGIN),
    });
    expect(res.statusCode).toBe(200);
    return { authenticator, id: res.json().data.passkey.id as string };
  }

  it('finding 3: a reset link asked for before the owner changes the password on My account no longer works', async () => {
    const user = await createUser();
    await askResetLink(user.username, user.email);
    const token = (await emailData<{ token: string }>(user.email, 'password-reset-link'))!.token;
    expect((await resetQuestion(token)).statusCode).toBe(200); // it works until the change

    const owner: TestClient = { ip: newIp() };
    await login(owner, user.username);
    expect((await changePassword(owner, START_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);

    expect((await resetQuestion(token)).json()).toEqual({ errorMessage: 'Reset_Token_Invalid' });
    const set = await call({ ip: newIp() }, 'POST', RESET_PASSWORD_PATH, {
      step: 'set-password',
      token,
      answer: ANSWER,
      newPassword: 'another fine passphrase for later',
    });
    expect(set.json()).toEqual({ errorMessage: 'Reset_Token_Invalid' });
    // The password is the owner's new one; the notice says earlier links no longer work.
    await login({ ip: newIp() }, user.username, NEW_PASSWORD);
    expect(await textOf(user.email, 'password-changed')).toContain('Links and codes we emailed you before this change');
  });

  describe('finding 4: a pending email change is cancelled by every credential change and by sign-out everywhere', () => {
    const cases: [name: string, act: (client: TestClient) => Promise<void>, notice?: string][] = [
      [
        'a password change',
        async (client) =>
          void expect((await changePassword(client, START_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200),
        'password-changed',
      ],
      ['an authenticator reset', async (client) => void (await resetAuthenticator(client)), 'mfa-changed'],
      [
        'sign out everywhere else',
        async (client) =>
          void expect((await call(client, 'POST', ACCOUNT_ROUTES.endOtherSessions)).statusCode).toBe(200),
      ],
    ];
    it.each(cases)('%s', async (_name, act, notice) => {
      const user = await createUser();
      const client: TestClient = { ip: newIp() };
      await login(client, user.username);
      const address = `${user.username}.moved@example.org`;
      const token = await askEmailChange(client, address);
      // A reset link and a reactivation-style token outstanding too: every one of the account's tokens ends.
      await askResetLink(user.username, user.email);
      const resetToken = (await emailData<{ token: string }>(user.email, 'password-reset-link'))!.token;

      await act(client);

      const confirmed = await confirmEmail(token);
      expect(confirmed.statusCode).toBe(400);
      expect(confirmed.json()).toEqual({ errorMessage: 'Email_Change_Link_Invalid' });
      expect(await emailOf(user.id)).toBe(user.email);
      expect((await resetQuestion(resetToken)).json()).toEqual({ errorMessage: 'Reset_Token_Invalid' });
      const open = await app.database.db
        .select()
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.userId, user.id), isNull(oneTimeTokens.usedAt)));
      expect(open).toEqual([]);
      // The owner sees it on My account, and the notice of the change says so.
      expect(await activity(client)).toContain('tokens.revoked');
      const described = (await call(client, 'GET', ACCOUNT_ROUTES.activity)).json().data.items;
      expect(described.map((i: { description: string }) => i.description)).toContain(
        'Emailed links and codes, and any email address change not yet confirmed, cancelled',
      );
      if (notice)
        expect(await textOf(user.email, notice)).toContain(
          'an email address change that was not yet confirmed was cancelled',
        );
    });

    it('a new request after the change works as usual', async () => {
      const user = await createUser();
      const client: TestClient = { ip: newIp() };
      await login(client, user.username);
      await call(client, 'POST', ACCOUNT_ROUTES.endOtherSessions);
      const token = await askEmailChange(client, `${user.username}.later@example.org`);
      expect((await confirmEmail(token)).statusCode).toBe(200);
      expect(await emailOf(user.id)).toBe(`${user.username}.later@example.org`);
    });
  });

  describe('finding 5: passkeys are treated like the authenticator app', () => {
    it('adding and removing a passkey emails the owner, shows on My account and ends every other session', async () => {
      const user = await createUser();
      const client: TestClient = { ip: newIp() };
      await login(client, user.username);
      const elsewhere = await otherSession(user.id);
      const address = `${user.username}.moved@example.org`;
      const token = await askEmailChange(client, address);

      const { id } = await addPasskey(client, 'Work laptop');
      expect(await loggedIn(client)).toBe(true);
      expect(await loggedIn(elsewhere)).toBe(false);
      expect(await emailData(user.email, 'passkey-changed')).toEqual({
        firstName: 'Pat',
        change: 'added',
        name: 'Work laptop',
      });
      expect(await textOf(user.email, 'passkey-changed')).toContain('A passkey named "Work laptop" was just added');
      expect((await confirmEmail(token)).json()).toEqual({ errorMessage: 'Email_Change_Link_Invalid' });

      const second = await otherSession(user.id);
      const removed = await call(client, 'POST', passkeyRoute(ACCOUNT_ROUTES.passkeyRemove, id));
      expect(removed.json()).toEqual({ data: { removed: true } });
      expect(await loggedIn(second)).toBe(false);
      expect(await loggedIn(client)).toBe(true);
      expect(await emailData(user.email, 'passkey-changed')).toMatchObject({ change: 'removed', name: 'Work laptop' });
      expect((await templatesTo(user.email)).filter((t) => t === 'passkey-changed')).toHaveLength(2);

      const items = (await call(client, 'GET', ACCOUNT_ROUTES.activity)).json().data.items as {
        action: string;
        description: string;
      }[];
      expect(items.map((i) => i.description)).toEqual(expect.arrayContaining(['Passkey added', 'Passkey removed']));
      const events = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.target, user.id), eq(auditEvents.action, 'passkey.added')));
      expect(events.at(-1)!.details).toEqual({ method: 'passkey', sessionCount: 1 });
    });

    it('an authenticator reset removes every passkey and says so; a password change keeps them and lists them', async () => {
      const user = await createUser();
      const client: TestClient = { ip: newIp() };
      await login(client, user.username);
      await addPasskey(client, 'Home desktop');
      await addPasskey(client, 'Security key');

      expect((await changePassword(client, START_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
      expect(await emailData(user.email, 'password-changed')).toEqual({
        firstName: 'Pat',
        passkeys: ['Home desktop', 'Security key'],
      });
      expect(await textOf(user.email, 'password-changed')).toContain(
        'Your account keeps its passkeys: "Home desktop", "Security key".',
      );
      expect((await call(client, 'GET', ACCOUNT_ROUTES.passkeys)).json().data.passkeys).toHaveLength(2);

      await resetAuthenticator(client);
      expect((await call(client, 'GET', ACCOUNT_ROUTES.passkeys)).json().data.passkeys).toEqual([]);
      expect(await app.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
      expect(await emailData(user.email, 'mfa-changed')).toEqual({ firstName: 'Pat', passkeysRemoved: 2 });
      expect(await textOf(user.email, 'mfa-changed')).toContain('Your 2 passkeys were removed with the old app');
    });
  });

  it('the takeover chain fails at every step after the owner changes the password and resets the authenticator', async () => {
    const victim = await createUser();
    const attackerAddress = 'attacker@evil.example';

    // The attacker holds a fresh session of the victim: plants a passkey, sets answers they know, moves the email.
    const attacker = await otherSession(victim.id);
    const planted = await addPasskey(attacker, 'Backup key');
    expect(
      (await call(attacker, 'POST', ACCOUNT_ROUTES.securityAnswers, { securityQuestions: KNOWN_ANSWERS })).statusCode,
    ).toBe(200);
    const emailToken = await askEmailChange(attacker, attackerAddress);
    // A reset link for the account is outstanding too (in the victim's mailbox, waiting for the address to move).
    await askResetLink(victim.username, victim.email);
    const earlierResetToken = (await emailData<{ token: string }>(victim.email, 'password-reset-link'))!.token;

    // The owner, warned by the notices, recovers: a new password, then a new authenticator.
    const owner: TestClient = { ip: newIp() };
    await login(owner, victim.username);
    expect((await changePassword(owner, START_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
    const newSecret = await resetAuthenticator(owner);

    // 1. The old session is over.
    expect(await loggedIn(attacker)).toBe(false);
    expect((await call(attacker, 'GET', ACCOUNT_ROUTES.account)).statusCode).toBe(401);
    expect((await call(attacker, 'POST', ACCOUNT_ROUTES.email, { email: attackerAddress })).statusCode).toBe(401);

    // 2. The email change cannot be confirmed: the account keeps the owner's address.
    expect((await confirmEmail(emailToken)).json()).toEqual({ errorMessage: 'Email_Change_Link_Invalid' });
    expect(await emailOf(victim.id)).toBe(victim.email);

    // 3. No reset with the known answers: the earlier link is dead, and a new one goes to the owner's address only.
    expect((await resetQuestion(earlierResetToken)).json()).toEqual({ errorMessage: 'Reset_Token_Invalid' });
    const withEarlier = await call({ ip: newIp() }, 'POST', RESET_PASSWORD_PATH, {
      step: 'set-password',
      token: earlierResetToken,
      answer: KNOWN_ANSWERS[0]!.answer,
      newPassword: 'attacker chosen passphrase here',
    });
    expect(withEarlier.json()).toEqual({ errorMessage: 'Reset_Token_Invalid' });
    await askResetLink(victim.username, attackerAddress);
    await askResetLink(victim.username, victim.email);
    expect(await templatesTo(attackerAddress)).not.toContain('password-reset-link');
    expect((await latestEmail(app, victim.email, 'password-reset-link'))!.recipient).toBe(victim.email);

    // 4. The planted passkey is gone: even with the right password, a passkey login has nothing to use.
    const withOldPassword = await call({ ip: newIp() }, 'POST', '/api/auth/login', {
      username: victim.username,
      password: START_PASSWORD,
    });
    expect(withOldPassword.statusCode).toBe(401);
    const pending: TestClient = { ip: newIp() };
    clock.advance(31_000);
    await call(pending, 'POST', '/api/auth/login', { username: victim.username, password: NEW_PASSWORD });
    const options = await call(pending, 'POST', ACCOUNT_ROUTES.passkeyLoginOptions);
    expect(options.json()).toEqual({ errorMessage: 'Passkey_None_Registered' });
    // An assertion from the planted key (answering a challenge it could have seen) is refused too.
    const assertion = await call(pending, 'POST', ACCOUNT_ROUTES.passkeyLogin, {
      credential: planted.authenticator.authenticate(
        { challenge: 'AAAAAAAAAAAAAAAAAAAAAA', rpId: 'localhost' },
        ORIGIN,
      ),
    });
    expect(assertion.statusCode).toBe(401);
    expect(await loggedIn(pending)).toBe(false);

    // The owner still gets in with the new password and the new authenticator.
    await login({ ip: newIp() }, victim.username, NEW_PASSWORD, newSecret);
  });
});
