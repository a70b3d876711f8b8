import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../src/db/client';
import { JobRunner, type Job } from '../src/platform/jobs';
import { TEST_CLOCK_CHECK_MS, testClock } from '../src/platform/test-clock';
import { buildTestApp, createTestDatabase, testConfig } from './helpers';

/**
 * The test-only settings browser tests move time and hurry jobs with (docs/decisions/0043): TEST_CLOCK_FILE and
 * TEST_JOB_INTERVAL_MS. Their refusal in production is in server/src/config.test.ts.
 */
const DAY_MS = 86_400_000;

describe('TEST_CLOCK_FILE: the system clock plus the offset in a file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-test-clock-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds the offset the file holds, sees a new one within a second, and keeps it through a bad write', () => {
    const path = join(dir, 'offset');
    const warnings: string[] = [];
    let system = Date.parse('2026-11-26T12:00:00Z');
    const clock = testClock(path, { warn: (_details, message) => warnings.push(message) }, () => system);

    // No file yet: the system clock.
    expect(clock().toISOString()).toBe('2026-11-26T12:00:00.000Z');

    writeFileSync(path, String(11 * DAY_MS));
    system += TEST_CLOCK_CHECK_MS;
    expect(clock().toISOString()).toBe('2026-12-07T12:00:01.000Z');
    expect(warnings).toEqual(['test clock moved: system clock plus offsetMs']);

    // Cheap: within the second the file is not looked at again.
    writeFileSync(path, '0\n');
    system += 10;
    expect(clock().toISOString()).toBe('2026-12-07T12:00:01.010Z');
    system += TEST_CLOCK_CHECK_MS;
    expect(clock().toISOString()).toBe('2026-11-26T12:00:02.010Z');

    writeFileSync(path, 'eleven days');
    system += TEST_CLOCK_CHECK_MS;
    expect(clock().getTime()).toBe(system);
    expect(warnings.at(-1)).toMatch(/does not hold a whole number of milliseconds/);
  });

  it("is the app's clock, with a warning in the log", async () => {
    const path = join(dir, 'app-offset');
    writeFileSync(path, String(-DAY_MS));
    const built = await buildTestApp({ config: testConfig({ TEST_CLOCK_FILE: path, TEST_JOB_INTERVAL_MS: '500' }) });
    try {
      const lag = Date.now() - DAY_MS - built.app.clock().getTime();
      expect(Math.abs(lag)).toBeLessThan(5_000);
      expect(
        built.logLines.some((line) => line.includes('"level":40') && line.includes('TEST_CLOCK_FILE is set')),
      ).toBe(true);
      expect(built.logLines.some((line) => line.includes('TEST_JOB_INTERVAL_MS is set'))).toBe(true);
    } finally {
      await built.app.close();
    }
  });
});

describe('TEST_JOB_INTERVAL_MS: every job at one short interval', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  const log = pino({ level: 'silent' });

  it('runs a daily job one interval after start (not FIRST_RUN_DELAY_MS), then again every interval', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const runs = { count: 0 };
    const daily: Job = {
      name: 'daily-in-a-test',
      intervalMs: DAY_MS,
      async run() {
        runs.count++;
      },
    };
    // The runner's claim in app_state is on the app's clock: moved along with the timers.
    let now = Date.parse('2026-11-26T12:00:00Z');
    const runner = new JobRunner(database.db, [daily], log, () => new Date(now), { intervalMs: 2_000 });
    // A run is over (and its next timer set) once the runner has reported it.
    const finished = { count: 0 };
    runner.onRunFinished = () => finished.count++;
    const advance = async (ms: number) => {
      now += ms;
      await vi.advanceTimersByTimeAsync(ms);
    };
    try {
      runner.start();
      await advance(1_999);
      expect(runs.count).toBe(0);
      await advance(1);
      await vi.waitFor(() => expect(finished.count).toBe(1));
      await advance(2_000);
      await vi.waitFor(() => expect(finished.count).toBe(2));
      await advance(2_000);
      await vi.waitFor(() => expect(finished.count).toBe(3));
      expect(runs.count).toBe(3);
    } finally {
      await runner.stop();
      vi.useRealTimers();
    }
  });
});
