import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sessions } from '../src/db/schema';
import { completeMfa, loginWithPassword } from '../src/modules/auth/service';
import { encryptSecret } from '../src/platform/encryption';
import { currentTotp } from '../src/identity/mfa/totp';
import { contextOf, detachedSession } from '../src/identity/service-context';
import { hashSessionId, sessionOfCookie } from '../src/identity/sessions/store';
import { buildTestApp, testClock } from './helpers';
import { createAccount, START_PASSWORD, TOTP_SECRET } from './factories';

/**
 * The login flow as a service (docs/architecture.md): the password step and the TOTP step called directly with a
 * plain context, no HTTP request, no `app.inject`. What a job or a future staff console would do.
 */

const CLIENT = { ip: '10.20.0.1', requestId: 'req-service-login', userAgent: 'service test' };

describe('the login flow without HTTP', () => {
  const clock = testClock();
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now }));
  });
  afterAll(() => app.close());

  it('password, then a TOTP code, through the services with a context: a logged-in session, audited for the client', async () => {
    const user = await createAccount(app, 'service.login', {
      totpSecretEncrypted: encryptSecret(app.secrets.encryptionKey, TOTP_SECRET),
      mfaEnrolledAt: clock.now(),
    });
    const cookie = detachedSession();
    const ctx = contextOf(app, CLIENT, cookie);

    expect(await loginWithPassword(ctx, { username: '  Service.Login ', password: START_PASSWORD })).toBe('mfa');
    const pendingId = cookie.issued!;
    const pending = await sessionOfCookie(ctx, pendingId);
    if (pending.status !== 'valid') throw new Error(`no pending session: ${pending.status}`);
    expect(pending.session.stage).toBe('mfa');

    const completion = await completeMfa(ctx, pending.session, await currentTotp(TOTP_SECRET, clock.now()));
    expect(completion).toEqual({ loggedIn: true });
    // A new session id for the new privilege; the pending one is gone.
    expect(cookie.issued).not.toBe(pendingId);
    const rows = await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.map((r) => [r.idHash, r.stage, r.ip, r.userAgent])).toEqual([
      [hashSessionId(cookie.issued!), 'active', CLIENT.ip, CLIENT.userAgent],
    ]);
    // Both steps audited with the context's client address and request id.
    const events = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, user.id), eq(auditEvents.outcome, 'success')));
    expect(events.map((e) => [e.action, e.ip, e.requestId])).toEqual([
      ['login.password', CLIENT.ip, CLIENT.requestId],
      ['login.mfa', CLIENT.ip, CLIENT.requestId],
    ]);
  });

  it('a wrong password through the service: Login_Failed, counted toward the lockout and audited', async () => {
    const user = await createAccount(app, 'service.wrong');
    const ctx = contextOf(app, CLIENT);
    await expect(
      loginWithPassword(ctx, { username: 'service.wrong', password: 'not the password' }),
    ).rejects.toMatchObject({
      status: 401,
      code: 'Login_Failed',
    });
    const [event] = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, user.id), eq(auditEvents.action, 'login.failed')));
    expect(event).toMatchObject({ outcome: 'failure', ip: CLIENT.ip, details: { reason: 'wrong_password', count: 1 } });
  });
});
