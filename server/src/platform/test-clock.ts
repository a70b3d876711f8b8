import { readFileSync, statSync } from 'node:fs';
import type { Config } from '../config';

/** How often the clock looks at its file's modification time; the file itself is read only when that changed. */
export const TEST_CLOCK_CHECK_MS = 1_000;

interface TestClockLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * The app's clock for browser tests (`TEST_CLOCK_FILE`, docs/decisions/0043): the system clock plus the number of
 * milliseconds the file holds, so a test moves time (past a recertification date) by writing the file, and every
 * service and job, which all read the app's clock, sees the same moved time. A missing or empty file is no offset.
 * Cheap on the hot path: the file's modification time is looked at once a second at most and the file read only
 * when it changed, so a new offset takes effect within a second.
 */
export function testClock(path: string, log: TestClockLog, systemNow: () => number = Date.now): () => Date {
  let offsetMs = 0;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let seen: string | undefined;

  const refresh = () => {
    let stamp: string;
    try {
      const stat = statSync(path);
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp === seen) return;
    seen = stamp;
    const text = stamp === 'missing' ? '' : readFileSync(path, 'utf8').trim();
    const next = text === '' ? 0 : Number(text);
    if (!Number.isSafeInteger(next)) {
      log.warn({ path }, 'TEST_CLOCK_FILE does not hold a whole number of milliseconds: the clock keeps its offset');
      return;
    }
    if (next !== offsetMs) log.warn({ offsetMs: next }, 'test clock moved: system clock plus offsetMs');
    offsetMs = next;
  };

  return () => {
    const now = systemNow();
    if (now - checkedAt >= TEST_CLOCK_CHECK_MS) {
      checkedAt = now;
      refresh();
    }
    return new Date(now + offsetMs);
  };
}

/**
 * Warns once for each test-only setting in use (TEST_CLOCK_FILE, TEST_JOB_INTERVAL_MS) and answers the file clock
 * when TEST_CLOCK_FILE is set (undefined otherwise: the system clock). Production refuses both settings (config.ts).
 */
export function testingClock(config: Pick<Config, 'testing'>, log: TestClockLog): (() => Date) | undefined {
  const { clockFile, jobIntervalMs } = config.testing;
  if (jobIntervalMs !== undefined)
    log.warn({ jobIntervalMs }, 'TEST_JOB_INTERVAL_MS is set: every job runs at this interval (tests only)');
  if (clockFile === undefined) return undefined;
  log.warn(
    { path: clockFile },
    'TEST_CLOCK_FILE is set: the clock is the system clock plus the offset in this file (tests only)',
  );
  return testClock(clockFile, log);
}
