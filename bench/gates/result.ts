// One checked figure of a gate: what was measured, against which target, PASS or FAIL — or no verdict, with the
// reason, when the measurement did not repeat (bench/gates/verdict.ts).
import { fileURLToPath } from 'node:url';
import type { Verdict } from './verdict';

export interface Check {
  gate: string;
  name: string;
  figure: string;
  target: string;
  pass: boolean;
  /** Why no verdict was given (the check then neither passes nor fails). */
  refused?: string;
}

/** Exit codes of `npm run bench` and of each gate run alone (bench/README.md). */
export const EXIT = { pass: 0, fail: 1, noVerdict: 3 } as const;

const outcomeOf = (c: Check) => (c.refused !== undefined ? 'no verdict' : c.pass ? 'PASS' : 'FAIL');
const lineOf = (c: Check) =>
  `  ${outcomeOf(c)}  ${c.gate}: ${c.name} — ${c.refused !== undefined ? `no verdict: ${c.refused}; measured ` : ''}${c.figure} (target ${c.target})`;

export function check(gate: string, name: string, figure: string, target: string, pass: boolean): Check {
  const c = { gate, name, figure, target, pass };
  console.log(lineOf(c));
  return c;
}

/** A check judged by `ratioVerdict`: PASS or FAIL only when the measurement repeated, else no verdict and why. */
export function judged(gate: string, name: string, figure: string, target: string, verdict: Verdict): Check {
  const c: Check = { gate, name, figure, target, pass: verdict.outcome === 'PASS' };
  if (verdict.outcome === 'no verdict') c.refused = verdict.reason;
  console.log(lineOf(c));
  return c;
}

/**
 * The closing lines: every check again, and one summary line. Answers the exit code: 1 when any check failed, else 3
 * when any gave no verdict, else 0.
 */
export function summarize(checks: Check[]): number {
  console.log('\nSummary');
  for (const c of checks) console.log(lineOf(c));
  const failed = checks.filter((c) => outcomeOf(c) === 'FAIL').length;
  const refused = checks.filter((c) => outcomeOf(c) === 'no verdict').length;
  const notes = refused ? `; ${refused} gave no verdict (their measurement did not repeat)` : '';
  if (failed) {
    console.log(`bench gates: FAIL — ${failed} of ${checks.length} checks failed${notes}`);
    return EXIT.fail;
  }
  if (refused) {
    console.log(`bench gates: NO VERDICT — ${checks.length - refused} of ${checks.length} checks passed${notes}`);
    return EXIT.noVerdict;
  }
  console.log(`bench gates: PASS — all ${checks.length} checks met their targets`);
  return EXIT.pass;
}

/** Whether `moduleUrl` is the script node was asked to run (a gate run alone). */
export const isMain = (moduleUrl: string) => process.argv[1] === fileURLToPath(moduleUrl);

/** Seconds from an environment variable, or the default. */
export const seconds = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
