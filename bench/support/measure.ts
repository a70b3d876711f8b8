// What the benchmarks share to measure: percentiles, the machine's load, autocannon in a child process (so the load
// generator does not share the server's event loop), and one measurement window with the event loop's own delay.
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summary(values: readonly number[]): { p50: number; p99: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), min: sorted[0]!, max: sorted.at(-1)! };
}

export const median = (values: readonly number[]) => summary(values).p50;

/** `median (min–max)` of a series of per-window figures, `digits` after the point. */
export function medianAndRange(values: readonly number[], digits = 0): string {
  const { p50, min, max } = summary(values);
  return `${p50.toFixed(digits)} (${min.toFixed(digits)}–${max.toFixed(digits)})`;
}

/** The machine's 1, 5 and 15 minute load averages, to print beside each window (the machine is shared). */
export const loadAverage = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')}`;

export interface AutocannonResult {
  requests: { average: number; total: number };
  /** Whole milliseconds (autocannon's resolution). */
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}

const autocannonCli = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

/** Runs autocannon with `args` (its CLI's, the URL last) in a child process; any non-2xx answer or error throws. */
export function autocannon(args: string[]): Promise<AutocannonResult> {
  return autocannonProcess(autocannonCli, ['--json', ...args], args.at(-1) ?? '');
}

/**
 * Runs a Node script that prints an autocannon result as JSON (the autocannon command with `--json`, or a script of
 * bench/support/ built on its API) in a child process, so the load generator's work stays out of this process, and
 * throws on any non-2xx answer or error.
 */
export async function autocannonProcess(script: string, args: string[], label: string): Promise<AutocannonResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [script, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(stdout) as AutocannonResult;
  if (result.non2xx || result.errors)
    throw new Error(
      `${label}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  return result;
}

/**
 * Runs `work` while sampling this process's event-loop delay: its p99 (ms) tells a blocked or CPU-starved event loop
 * from latency added elsewhere (the database, the load generator, the machine).
 */
export async function withLoopDelay<T>(work: () => Promise<T>): Promise<{ result: T; loopDelayP99Ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const result = await work();
    return { result, loopDelayP99Ms: histogram.percentile(99) / 1e6 };
  } finally {
    histogram.disable();
  }
}
