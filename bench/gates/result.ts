// One checked figure of a gate: what was measured, against which target, PASS or FAIL.
import { fileURLToPath } from 'node:url';

export interface Check {
  gate: string;
  name: string;
  figure: string;
  target: string;
  pass: boolean;
}

export function check(gate: string, name: string, figure: string, target: string, pass: boolean): Check {
  console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${gate}: ${name} — ${figure} (target ${target})`);
  return { gate, name, figure, target, pass };
}

/** The closing lines: every check again, and one summary line. Answers the exit code (1 when any failed). */
export function summarize(checks: Check[]): number {
  console.log('\nSummary');
  for (const c of checks)
    console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.gate}: ${c.name} — ${c.figure} (target ${c.target})`);
  const failed = checks.filter((c) => !c.pass).length;
  console.log(
    failed
      ? `bench gates: FAIL — ${failed} of ${checks.length} checks failed`
      : `bench gates: PASS — all ${checks.length} checks met their targets`,
  );
  return failed ? 1 : 0;
}

/** Whether `moduleUrl` is the script node was asked to run (a gate run alone). */
export const isMain = (moduleUrl: string) => process.argv[1] === fileURLToPath(moduleUrl);

/** Seconds from an environment variable, or the default. */
export const seconds = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
