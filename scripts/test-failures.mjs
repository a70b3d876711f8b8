// Lines naming each failed test (or test file that failed to load) in a vitest JSON report, with the first line of
// its error, and each test that passed only on a retry, so a log read from its tail still says what failed or wobbled.
// Used by scripts/test.mjs and .ci/run.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const firstLine = (text) =>
  String(text ?? '')
    // eslint-disable-next-line no-control-regex -- strip ANSI colour codes from vitest's messages
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

/** @param {{ testResults?: Array<{ name: string, status: string, message?: string, assertionResults?: Array<{ status: string, fullName?: string, title?: string, failureMessages?: string[] }> }> }} report */
export function describeFailures(report, root = process.cwd()) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const name = relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      let error = firstLine(test.failureMessages?.[0]);
      // vitest reports its own test timeout with the stack of a placeholder error of this name.
      if (error === 'Error: STACK_TRACE_ERROR') error = 'the test ran past its time limit';
      lines.push(`FAILED ${name} > ${test.fullName ?? test.title}: ${error}`);
    }
    if (failedTests.length === 0 && file.status === 'failed') {
      lines.push(`FAILED ${name} (the file did not run): ${firstLine(file.message)}`);
    }
  }
  return lines;
}

/** Where scripts/flaky-reporter.mjs keeps the retried tests of the run whose JSON report is `reportFile`. */
export const flakyReportOf = (reportFile) => `${reportFile}.flaky.json`;

/** Lines naming each test that passed only on a retry (none when the run kept no such file). */
export function describeFlaky(reportFile) {
  const file = flakyReportOf(reportFile);
  if (!existsSync(file)) return [];
  const flaky = JSON.parse(readFileSync(file, 'utf8'));
  return flaky.map(
    (test) =>
      `FLAKY ${test.file} > ${test.name}: passed on retry ${test.retries}` +
      (test.firstError ? ` (first attempt: ${firstLine(test.firstError)})` : ''),
  );
}
