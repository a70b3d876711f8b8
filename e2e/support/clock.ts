import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A portal's movable clock (TEST_CLOCK_FILE, docs/decisions/0043), from the test's side. */
export interface TestClock {
  /** The file to give the portal as TEST_CLOCK_FILE. */
  readonly path: string;
  /** How far the portal's clock is ahead of the system clock now (pass it to `freshTotp` and the login helpers). */
  readonly offsetMs: number;
  /** Moves the portal's clock forward by `ms`; the portal sees it within a second. */
  move(ms: number): void;
}

/** A clock file of the enclosing describe's own (no offset until moved), removed after its tests. */
export function testClock(): TestClock {
  const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-clock-'));
  const path = join(dir, 'offset-ms');
  let offsetMs = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    path,
    get offsetMs() {
      return offsetMs;
    },
    move(ms: number) {
      offsetMs += ms;
      // Written whole, then renamed over the old file: the portal never reads a half-written number.
      writeFileSync(`${path}.next`, String(offsetMs));
      renameSync(`${path}.next`, path);
    },
  };
}
