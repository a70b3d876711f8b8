// The closing lines of .ci/run: the retried and the failed tests of every run by name, then one line "N passed, N failed" summing the
// vitest JSON reports given as arguments. A report that is missing or unreadable counts as one failure.
import { readFileSync } from 'node:fs';

import { describeFailures, describeFlaky } from './test-failures.mjs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests || report.numFailedTestSuites || 0;
    for (const line of [...describeFlaky(file), ...describeFailures(report)]) console.log(line);
  } catch {
    console.log(`FAILED no readable test report at ${file}`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
