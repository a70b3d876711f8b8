import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// CI's log on record is its tail: the closing lines of .ci/run must name what failed, not only count it.
const script = path.resolve(import.meta.dirname, '..', 'scripts', 'ci-summary.mjs');
const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ci-summary-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function summary(...reports: object[]): Promise<string[]> {
  const files = await Promise.all(
    reports.map(async (report, i) => {
      const file = path.join(dir, `report-${i}.json`);
      await writeFile(file, JSON.stringify(report));
      return file;
    }),
  );
  const { stdout } = await run(process.execPath, [script, ...files, path.join(dir, 'missing.json')], {
    cwd: path.resolve(import.meta.dirname, '..'),
  });
  return stdout.trim().split('\n');
}

describe('scripts/flaky-reporter.mjs', () => {
  it('names a test that passed only on its retry, and no other', async () => {
    const repo = path.resolve(import.meta.dirname, '..');
    const report = path.join(dir, 'flaky-run.json');
    await run(
      process.execPath,
      [
        path.join(repo, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--root',
        path.join(import.meta.dirname, 'test-fixtures'),
        '--reporter=json',
        `--outputFile.json=${report}`,
        `--reporter=${path.join(repo, 'scripts', 'flaky-reporter.mjs')}`,
      ],
      { cwd: repo, env: { ...process.env, PORTAL_FLAKY_REPORT: `${report}.flaky.json` } },
    );
    const { stdout } = await run(process.execPath, [script, report], { cwd: repo });
    expect(stdout.trim().split('\n')).toEqual([
      'FLAKY tooling/test-fixtures/flaky.fixture.ts > fails on its first attempt only: passed on retry 1 (first attempt: expected 1 to be 2 // Object.is equality)',
      '2 passed, 0 failed',
    ]);
  });
});

describe('scripts/ci-summary.mjs', () => {
  it('names each failed test with the first line of its error, then sums the runs in one closing line', async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const lines = await summary(
      {
        numPassedTests: 5,
        numFailedTests: 2,
        testResults: [
          {
            name: path.join(root, 'e2e/login-session.test.ts'),
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'logs in' },
              {
                status: 'failed',
                fullName: 'enrols',
                failureMessages: ['Error: STACK_TRACE_ERROR\n    at task (chunk-artifact.js:1784:27)'],
              },
              {
                status: 'failed',
                fullName: 'inactivity > shows the prompt',
                failureMessages: ['\u001b[31mTimeoutError: waiting for dialog\u001b[39m\n    at stack line'],
              },
            ],
          },
        ],
      },
      {
        numPassedTests: 2,
        numFailedTests: 0,
        numFailedTestSuites: 1,
        testResults: [
          {
            name: path.join(root, 'server/test/x.test.ts'),
            status: 'failed',
            message: 'SyntaxError: x',
            assertionResults: [],
          },
        ],
      },
    );
    expect(lines).toEqual([
      'FAILED e2e/login-session.test.ts > enrols: the test ran past its time limit',
      'FAILED e2e/login-session.test.ts > inactivity > shows the prompt: TimeoutError: waiting for dialog',
      'FAILED server/test/x.test.ts (the file did not run): SyntaxError: x',
      `FAILED no readable test report at ${path.join(dir, 'missing.json')}`,
      '7 passed, 4 failed',
    ]);
  });
});
