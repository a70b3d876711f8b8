import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One vitest run covers every suite so that one report gives the closing "N passed, N failed" line.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'], environment: 'node' },
      },
      {
        // The bench gates' verdicts over window figures (bench/gates/verdict.ts); the gates themselves run by hand.
        test: { name: 'bench', include: ['bench/**/*.test.ts'], environment: 'node' },
      },
      {
        // Proves the lint and format rules fire (tooling/lint-rules.test.ts).
        test: { name: 'tooling', include: ['tooling/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/testing/setup-tests.ts'],
          // A file's first render transforms its lazy routes on demand: seconds on a loaded two-core machine, which
          // the 5 s default (with findBy* waiting up to 15 s, setup-tests.ts) does not leave room for.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Browser tests share one built server and Chromium; two cores do not gain from running files side by side.
          fileParallelism: false,
          // A browser test races real timers (session prompts, TOTP steps) on a shared machine: one retry keeps a slow
          // moment from failing the run, and scripts/flaky-reporter.mjs names every test that needed it.
          retry: 1,
        },
      },
    ],
  },
});
