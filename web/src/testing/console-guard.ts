import { afterEach, beforeEach, vi } from 'vitest';

let allowed: RegExp[] = [];
let logged: string[] = [];
let spy: { mockRestore: () => void } | undefined;

/**
 * Lets the current test log console.error lines matching `pattern` (e.g. an error boundary that reports what it
 * caught). Any other console.error fails the test.
 */
export function allowConsoleError(pattern: RegExp) {
  allowed.push(pattern);
}

/** The console.error lines no allowance covers. */
export function unexpectedConsoleErrors(lines: readonly string[], patterns: readonly RegExp[]): string[] {
  return lines.filter((line) => !patterns.some((p) => p.test(line)));
}

/**
 * Fails a test that logs an unexpected console.error: React warnings (keys, act(), invalid DOM nesting) and
 * errors swallowed by boundaries otherwise pass unseen. Registered before cleanup so unmount errors count too.
 */
export function installConsoleGuard() {
  beforeEach(() => {
    allowed = [];
    logged = [];
    spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '));
    });
  });
  afterEach(() => {
    spy?.mockRestore();
    const unexpected = unexpectedConsoleErrors(logged, allowed);
    if (unexpected.length) throw new Error(`Unexpected console.error in this test:\n${unexpected.join('\n---\n')}`);
  });
}
