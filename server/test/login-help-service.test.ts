import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sessions, users } from '../src/db/schema';
import { forgotPassword, resetPassword, resetPasswordQuestion } from '../src/modules/login-help/service';
import { PortalError } from '../src/platform/portal-error';
import { contextOf } from '../src/identity/service-context';
import { createSession } from '../src/identity/sessions/store';
import { buildTestApp, testClock } from './helpers';
import { ANSWER, createAccount, latestEmail, QUESTION_KEYS } from './factories';

const NEW_PASSWORD = 'amber glacier violin harvest ninety';

/**
 * The login-help flows are services over a plain context (docs/architecture.md#server-modules): forgot password and
 * the reset run here without HTTP, and what they write carries the context's client.
 */
describe('login help as services', () => {
  const clock = testClock();
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now }));
  });
  afterAll(() => app.close());

  it('forgot password → reset runs from a context, with no request, and audits as the context client', async () => {
    const user = await createAccount(app, 'svc.reset');
    await createSession(app.database.db, {
      userId: user.id,
      stage: 'active',
      now: clock.now(),
      limits: app.config.sessions,
    });
    const client = { ip: '192.0.2.44', requestId: 'svc-reset-1', userAgent: 'service test' };
    const ctx = contextOf(app, client);

    expect(await forgotPassword(ctx, { username: 'SVC.Reset', email: user.email, isInternal: false })).toBe(
      'check-email',
    );
    const email = await latestEmail(app, user.email, 'password-reset-link');
    const { token } = email!.data as { token: string };

    const questionId = await resetPasswordQuestion(ctx, token);
    expect(QUESTION_KEYS).toContain(questionId);
    await expect(resetPassword(ctx, { token, answer: 'wrong', newPassword: NEW_PASSWORD })).rejects.toMatchObject({
      status: 400,
      code: 'Security_Answer_Incorrect',
    });
    await resetPassword(ctx, { token, answer: ANSWER, newPassword: NEW_PASSWORD });

    const [after] = await app.database.db.select().from(users).where(eq(users.id, user.id));
    expect(await app.passwordHasher.verify(after!.passwordHash, NEW_PASSWORD)).toBe(true);
    expect(await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await latestEmail(app, user.email, 'password-changed')).toBeDefined();
    // The link is spent.
    const again = resetPasswordQuestion(ctx, token);
    await expect(again).rejects.toBeInstanceOf(PortalError);
    await expect(again).rejects.toMatchObject({ code: 'Reset_Token_Invalid' });

    const events = await app.database.db.select().from(auditEvents).where(eq(auditEvents.requestId, client.requestId));
    // Every step, in the order taken: the spent link matches no account any more.
    expect(events.sort((a, b) => a.id - b.id).map((e) => [e.action, e.outcome, e.target])).toEqual([
      ['login-help.forgot-password', 'success', user.id],
      ['login-help.reset-password', 'failure', user.id],
      ['login-help.reset-password', 'success', user.id],
      ['login-help.reset-password', 'failure', null],
    ]);
    expect(new Set(events.map((e) => e.ip))).toEqual(new Set([client.ip]));
  });
});
