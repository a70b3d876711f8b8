import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, securityAnswers } from '../src/db/schema';
import { userById } from '../src/db/users';
import { confirmEmailChange, changeSecurityAnswers, requestEmailChange } from '../src/modules/account/service';
import { PortalError } from '../src/platform/portal-error';
import { contextOf, type ClientInfo } from '../src/identity/service-context';
import { verifySecurityAnswer } from '../src/identity/security-answers';
import { createSession, hashSessionId, type LoadedSession } from '../src/identity/sessions/store';
import { buildTestApp, testClock } from './helpers';
import { createPerson, queuedEmails } from './factories';

/**
 * My account's flows called as plain functions over a `ServiceContext` (docs/architecture.md#server-modules): no
 * HTTP request, no `app.inject`. The route tests (account.test.ts) cover the same flows through HTTP.
 */
describe('My account flows without HTTP', () => {
  const clock = testClock();
  let app: FastifyInstance;
  let userCounter = 0;

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: clock.now }));
  });
  afterAll(() => app.close());

  const client = (requestId: string): ClientInfo => ({ ip: '10.9.0.1', requestId, userAgent: 'flow test' });

  /** A logged-in user and their session, made directly in the tables. */
  async function loggedInUser(): Promise<LoadedSession> {
    const username = `account.flow${++userCounter}`;
    const user = await createPerson(app, {
      username: username,
      firstName: 'Robin',
      lastName: 'Example',
      phone: '555-867-5309',
    });
    const now = clock.now();
    const id = await createSession(app.database.db, {
      userId: user!.id,
      stage: 'active',
      now,
      limits: app.config.sessions,
      authenticatedAt: now,
    });
    return {
      idHash: hashSessionId(id),
      userId: user!.id,
      stage: 'active',
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + app.config.sessions.absoluteMs),
      authenticatedAt: now,
      pendingTotpSecretEncrypted: null,
      mfaFailures: 0,
      username,
      firstName: 'Robin',
      lastName: 'Example',
    };
  }

  /** The mail queued to `to`, by template name (the outbox's ids are random: no order to rely on). */
  const mailTo = async (to: string) =>
    (await queuedEmails(app, { to }))
      .map(({ template, data }) => ({ template, data }))
      .sort((a, b) => (a.template < b.template ? -1 : 1));
  const eventsOf = (userId: string) =>
    app.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.target, userId))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id));

  it('email change: the request mails a link to the new address, confirming its token moves the account', async () => {
    const session = await loggedInUser();
    const before = (await userById(app.database.db, session.userId))!;
    const newAddress = `${session.username}.moved@example.org`;

    await requestEmailChange(contextOf(app, client('req-email-1')), session, newAddress);
    expect((await mailTo(before.email)).map((m) => m.template)).toEqual(['email-change-requested']);
    const [link] = await mailTo(newAddress);
    expect(link?.template).toBe('email-change-link');
    const token = (link!.data as { token: string }).token;
    expect((await userById(app.database.db, session.userId))!.email).toBe(before.email);

    // The link is opened elsewhere: another client, no session.
    await confirmEmailChange(contextOf(app, client('req-email-2')), token);
    expect((await userById(app.database.db, session.userId))!.email).toBe(newAddress);
    expect((await mailTo(before.email)).map((m) => m.template)).toEqual(['email-change-requested', 'email-changed']);

    // Spent: the same token again is refused with the link's code and audited as a failure.
    const again = await confirmEmailChange(contextOf(app, client('req-email-3')), token).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(PortalError);
    expect((again as PortalError).code).toBe('Email_Change_Link_Invalid');

    // Each event carries the address and request id of the context it ran in.
    const events = await eventsOf(session.userId);
    expect(events.map((e) => [e.action, e.outcome, e.ip, e.requestId])).toEqual([
      ['email.changed', 'success', '10.9.0.1', 'req-email-2'],
      ['email.change_requested', 'success', '10.9.0.1', 'req-email-1'],
    ]);
    const [refused] = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.requestId, 'req-email-3'), eq(auditEvents.action, 'email.changed')));
    expect(refused?.outcome).toBe('failure');
  });

  it('security answers: keys of the CMS list replace the old answers; an unlisted key changes nothing', async () => {
    const session = await loggedInUser();
    const answers = [
      { questionId: 'first-car', answer: 'Blue Honda' },
      { questionId: 'first-school', answer: 'Lincoln Elementary' },
      { questionId: 'childhood-nickname', answer: 'Sparky' },
    ];
    const unlisted = [answers[0]!, answers[1]!, { questionId: 'not-a-cms-question', answer: 'x' }];
    const refused = await changeSecurityAnswers(contextOf(app, client('req-sa-1')), session, unlisted).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(PortalError);
    expect((refused as PortalError).code).toBe('Validation_Failed');
    expect((refused as PortalError).fieldErrors).toEqual({
      'securityQuestions.2.questionId': ['Security_Question_Invalid'],
    });
    const stored = () =>
      app.database.db.select().from(securityAnswers).where(eq(securityAnswers.userId, session.userId));
    expect(await stored()).toEqual([]);

    await changeSecurityAnswers(contextOf(app, client('req-sa-2')), session, answers);
    const rows = await stored();
    expect(rows.map((r) => r.questionId).sort()).toEqual(['childhood-nickname', 'first-car', 'first-school']);
    const car = rows.find((r) => r.questionId === 'first-car')!;
    expect(await verifySecurityAnswer(car.answerHash, 'blue honda', app.passwordHasher)).toBe(true);
    const [event] = await eventsOf(session.userId);
    expect([event!.action, event!.requestId, event!.details]).toEqual([
      'security_answers.changed',
      'req-sa-2',
      { field: 'security_answers', count: 3 },
    ]);
  });
});
