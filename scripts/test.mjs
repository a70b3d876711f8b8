// `npm test`: every suite (contracts, server, web, browser) in one vitest run, closing with the line
// "N passed, N failed". Extra arguments go to vitest (e.g. `npm test -- --project server`).
// PORTAL_TEST_REPORT=<file> keeps vitest's JSON report there (CI sums several runs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describeFailures, describeFlaky, flakyReportOf } from './test-failures.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'portal-test-'));
const report = process.env.PORTAL_TEST_REPORT ?? join(tmp, 'report.json');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

const result = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    `--reporter=${join(root, 'scripts', 'flaky-reporter.mjs')}`,
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORTAL_FLAKY_REPORT: flakyReportOf(report) },
  },
);

let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  // A file that fails to load has no failed test but a failed suite: count it so it cannot pass silently.
  failed = json.numFailedTests || json.numFailedTestSuites || 0;
  // Name what failed right above the closing line: CI logs are often read from their tail only.
  for (const line of [...describeFlaky(report), ...describeFailures(json, root)]) console.log(line);
} catch {
  failed = 1; // no report: vitest itself failed to start
}
if (!process.env.PORTAL_TEST_REPORT) rmSync(tmp, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(result.status === 0 && failed === 0 ? 0 : result.status || 1);
