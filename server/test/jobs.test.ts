import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { DatabaseHandle } from '../src/db/client';
import { FIRST_RUN_DELAY_MS, JobRunner, type Job } from '../src/platform/jobs';
import { createTestDatabase } from './helpers';

const log = pino({ level: 'silent' });

describe('job runner', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  function countingJob(name: string, runs: { count: number }, intervalMs = 60_000): Job {
    return {
      name,
      intervalMs,
      async run() {
        runs.count++;
      },
    };
  }

  it('runs a job once per interval across two runners on one database', async () => {
    const runs = { count: 0 };
    const a = new JobRunner(database.db, [countingJob('once', runs)], log);
    const b = new JobRunner(database.db, [countingJob('once', runs)], log);
    const results = await Promise.all([a.runOnce('once'), b.runOnce('once'), a.runOnce('once'), b.runOnce('once')]);
    expect(runs.count).toBe(1);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('runs it again once the interval has passed (injectable clock) and when kicked', async () => {
    const runs = { count: 0 };
    let now = new Date('2026-11-23T10:00:00Z');
    const runner = new JobRunner(database.db, [countingJob('later', runs)], log, () => now);
    expect(await runner.runOnce('later')).toBe(true);
    now = new Date('2026-11-23T10:00:59Z');
    expect(await runner.runOnce('later')).toBe(false);
    now = new Date('2026-11-23T10:01:00Z');
    expect(await runner.runOnce('later')).toBe(true);
    expect(await runner.runOnce('later', { force: true })).toBe(true);
    expect(runs.count).toBe(3);
  });

  it('rolls a failing run back, so the next tick tries again', async () => {
    let fail = true;
    const runs = { count: 0 };
    const job: Job = {
      name: 'flaky',
      intervalMs: 60_000,
      async run() {
        if (fail) throw new Error('boom');
        runs.count++;
      },
    };
    const runner = new JobRunner(database.db, [job], log);
    expect(await runner.runOnce('flaky')).toBe(false);
    fail = false;
    expect(await runner.runOnce('flaky')).toBe(true);
    expect(runs.count).toBe(1);
  });

  it('start() runs a daily job soon, not one day later, and its claim keeps a restarted runner from running it again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const runs = { count: 0 };
      const daily = () => countingJob('daily-at-start', runs, 24 * 60 * 60_000);
      const first = new JobRunner(database.db, [daily()], log);
      first.start();
      await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS);
      await vi.waitFor(() => expect(runs.count).toBe(1));
      await first.stop();
      const restarted = new JobRunner(database.db, [daily()], log);
      restarted.start();
      await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS);
      expect(await restarted.runOnce('daily-at-start')).toBe(false);
      await restarted.stop();
      expect(runs.count).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stop() waits for a run in progress and no timer fires afterwards', async () => {
    let release!: () => void;
    const started = { count: 0, finished: 0 };
    const job: Job = {
      name: 'slow',
      intervalMs: 10,
      async run() {
        started.count++;
        await new Promise<void>((resolve) => (release = resolve));
        started.finished++;
      },
    };
    const runner = new JobRunner(database.db, [job], log);
    runner.start();
    await expect.poll(() => started.count).toBe(1);
    const stopping = runner.stop();
    release();
    await stopping;
    expect(started.finished).toBe(1);
    const count = started.count;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.count).toBe(count);
  });
});
