// A vitest run of its own for tooling/ci-summary.test.ts: one test that fails once and passes on its retry.
export default { test: { include: ['*.fixture.ts'], retry: 1 } };
