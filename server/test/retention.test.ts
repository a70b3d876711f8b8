import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, oneTimeTokens, outbox, sessions } from '../src/db/schema';
import { JobRunner } from '../src/platform/jobs';
import { enqueueEmail } from '../src/platform/mail/outbox';
import { consumeOneTimeToken, issueOneTimeToken, TOKEN_RETENTION_JOB } from '../src/identity/one-time-tokens';
import { AUDIT_RETENTION_JOB, OUTBOX_RETENTION_JOB, retentionJobs } from '../src/platform/retention';
import { createSession, sessionCleanupJob } from '../src/identity/sessions/store';
import { buildTestApp } from './helpers';
import { createAccount } from './factories';

const DAY = 24 * 60 * 60_000;
const log = pino({ level: 'silent' });

/**
 * The retention jobs (platform/retention.ts, issue 24): audit events after AUDIT_RETENTION_DAYS, used or expired
 * one-time tokens, delivered outbox rows and ended sessions are purged, by the app's clock, in batches.
 */
describe('retention jobs', () => {
  let now = Date.parse('2026-11-23T09:00:00Z');
  const clock = () => new Date(now);
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    ctx = await buildTestApp({ clock });
  });
  afterAll(() => ctx.app.close());
  const db = () => ctx.app.database.db;

  async function auditAt(action: string, at: number, count = 1) {
    await db()
      .insert(auditEvents)
      .values(
        Array.from({ length: count }, () => ({
          actor: 'system',
          action,
          outcome: 'success' as const,
          at: new Date(at),
        })),
      );
  }
  const auditCount = async (action: string) =>
    (await db().select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.action, action))).length;

  it('keeps audit events 90 days online by default: the app job deletes them once the clock passes that, and audits it', async () => {
    const start = now;
    await auditAt('test.kept-90-days', start);
    now = start + 89 * DAY;
    expect(await ctx.app.jobs.runOnce(AUDIT_RETENTION_JOB, { force: true })).toBe(true);
    expect(await auditCount('test.kept-90-days')).toBe(1);
    now = start + 90 * DAY + 60_000;
    expect(await ctx.app.jobs.runOnce(AUDIT_RETENTION_JOB, { force: true })).toBe(true);
    expect(await auditCount('test.kept-90-days')).toBe(0);
    const [purge] = await db().select().from(auditEvents).where(eq(auditEvents.action, 'audit.retention'));
    expect(purge).toMatchObject({ actor: 'system', outcome: 'success', details: { count: 1 } });
  });

  it('deletes a big backlog in batches, each its own transaction, until none is left', async () => {
    await auditAt('test.backlog', now - 200 * DAY, 7);
    await auditAt('test.recent', now - 10 * DAY, 2);
    const purges = await auditCount('audit.retention');
    // Batches of 3: the run takes 3 and answers "more"; the runner runs it again at once, twice.
    const runner = new JobRunner(
      db(),
      retentionJobs({ auditDays: 90, sentMailDays: 7, now: clock, batchSize: 3 }),
      log,
    );
    expect(await runner.runOnce(AUDIT_RETENTION_JOB, { force: true })).toBe(true);
    await expect.poll(() => auditCount('test.backlog')).toBe(0);
    await runner.stop();
    expect(await auditCount('test.recent')).toBe(2);
    const counts = (await db().select().from(auditEvents).where(eq(auditEvents.action, 'audit.retention')))
      .slice(purges)
      .map((e) => e.details?.count);
    expect(counts).toEqual([3, 3, 1]);
  });

  it('deletes one-time tokens a week after they were used or expired, and keeps live ones', async () => {
    const user = await createAccount(ctx.app, 'retention-tokens');
    const issue = (purpose: 'password-reset' | 'email-verify', ttlMs: number) =>
      db().transaction((tx) => issueOneTimeToken(tx, { userId: user.id, purpose, ttlMs, now: clock() }));
    const used = await issue('email-verify', DAY);
    expect(
      await db().transaction((tx) => consumeOneTimeToken(tx, { token: used, purpose: 'email-verify', now: clock() })),
    ).not.toBeNull();
    await issue('password-reset', 60 * 60_000); // expires in an hour
    now += 6 * DAY;
    await issue('email-verify', 3 * DAY); // the live one
    const rows = () => db().select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
    expect(await rows()).toHaveLength(3);
    expect(await ctx.app.jobs.runOnce(TOKEN_RETENTION_JOB, { force: true })).toBe(true);
    expect(await rows()).toHaveLength(3);
    now += 2 * DAY;
    expect(await ctx.app.jobs.runOnce(TOKEN_RETENTION_JOB, { force: true })).toBe(true);
    const left = await rows();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ purpose: 'email-verify', usedAt: null });
  });

  it('deletes delivered emails a week after sending, never undelivered ones', async () => {
    const queue = () =>
      db().transaction((tx) =>
        enqueueEmail(tx, { to: 'retention@example.com', template: 'password-changed', data: { firstName: 'Pat' } }),
      );
    const [oldSent, recentSent, unsent] = [await queue(), await queue(), await queue()];
    await db()
      .update(outbox)
      .set({ sentAt: new Date(now - 8 * DAY) })
      .where(eq(outbox.id, oldSent));
    await db()
      .update(outbox)
      .set({ sentAt: new Date(now - 6 * DAY) })
      .where(eq(outbox.id, recentSent));
    expect(await ctx.app.jobs.runOnce(OUTBOX_RETENTION_JOB, { force: true })).toBe(true);
    const left = await db()
      .select({ id: outbox.id })
      .from(outbox)
      .where(inArray(outbox.id, [oldSent, recentSent, unsent]));
    expect(left.map((r) => r.id).sort()).toEqual([recentSent, unsent].sort());
  });

  it('deletes sessions past their absolute or idle limit by the app clock, in batches', async () => {
    const user = await createAccount(ctx.app, 'retention-sessions');
    const limits = ctx.app.config.sessions;
    for (let i = 0; i < 5; i++) await createSession(db(), { userId: user.id, stage: 'active', now: clock(), limits });
    now += limits.idleMs + 1000;
    await createSession(db(), { userId: user.id, stage: 'active', now: clock(), limits });
    const runner = new JobRunner(db(), [sessionCleanupJob(limits, undefined, { now: clock, batchSize: 2 })], log);
    expect(await runner.runOnce('session-cleanup', { force: true })).toBe(true);
    const mine = () => db().select().from(sessions).where(eq(sessions.userId, user.id));
    await expect.poll(async () => (await mine()).length).toBe(1);
    await runner.stop();
    // The one left is the session active now.
    expect((await mine())[0]!.lastSeenAt.getTime()).toBe(now);
  });
});
