// How Node runs the portal process (`node <flags> server/dist/main.js`): the one place for its V8 flags, used by
// `npm start` (scripts/start.mjs) and by `npm run bench:memory`, which measures what `npm start` runs.
// On embedded PGlite (no DATABASE_URL) V8 grows the JS heap by a fixed 30 % over what the last major GC kept alive,
// instead of by a factor up to 4 it picks itself: the portal then holds ≤ 300 MB after load, where it held up to
// ~470 MB of garbage awaiting a major GC (docs/decisions/0070-pglite-memory.md). It changes when V8 collects, not how
// large the heap may grow. A portal on PostgreSQL (production: deploy/systemd/portal@.service) runs without flags.
export const EMBEDDED_NODE_FLAGS = ['--heap-growing-percent=30', '--max-semi-space-size=8'];

/**
 * The arguments before the script for a portal started with `env` (the embedded default when no DATABASE_URL).
 * @param {Record<string, string | undefined>} env
 * @returns {string[]}
 */
export function portalNodeFlags(env) {
  return env.DATABASE_URL ? [] : EMBEDDED_NODE_FLAGS;
}
