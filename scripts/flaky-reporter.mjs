// A vitest reporter that keeps the tests which passed only on a retry (the browser project retries once, see
// vitest.config.ts) in the JSON file named by PORTAL_FLAKY_REPORT, so scripts/test.mjs and .ci/run can name them:
// a retry keeps one slow moment from failing the run, but a flaky test must stay visible, with what went wrong.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class FlakyReporter {
  flaky = [];

  onTestCaseResult(testCase) {
    const diagnostic = testCase.diagnostic();
    const result = testCase.result();
    if (result.state === 'passed' && diagnostic?.flaky) {
      this.flaky.push({
        file: relative(process.cwd(), testCase.module.moduleId),
        name: testCase.fullName,
        retries: diagnostic.retryCount,
        // A test that passed on a retry still reports the errors of the attempts before (vitest's TestResultPassed).
        firstError: result.errors?.[0]?.message,
      });
    }
  }

  onTestRunEnd() {
    const file = process.env.PORTAL_FLAKY_REPORT;
    if (file) writeFileSync(file, JSON.stringify(this.flaky, null, 2));
  }
}
