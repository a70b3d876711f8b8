// `npm run bench`: every gate in turn (load and login ratio, faults, soak), each on its own fresh deployment, then one
// summary; exit code 1 when any check failed. Not part of `npm test`. How to run and shorten: bench/README.md.
import { runFaultGates } from './faults';
import { runLoadGates } from './load';
import { summarize, type Check } from './result';
import { runSoakGate } from './soak';
import { step } from './stack';

const checks: Check[] = [];
for (const [name, gate] of [
  ['load and login ratio', runLoadGates],
  ['faults', runFaultGates],
  ['soak', runSoakGate],
] as const) {
  step(`=== ${name} ===`);
  try {
    checks.push(...(await gate()));
  } catch (err) {
    console.error(err);
    checks.push({
      gate: name,
      name: 'ran to the end',
      figure: String((err as Error).message).split('\n')[0]!,
      target: 'no error',
      pass: false,
    });
  }
}
process.exitCode = summarize(checks);
