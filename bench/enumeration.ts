// Enumeration resistance by timing: for each login-help endpoint, the median latency of requests naming an existing
// account against requests naming an unknown one, 50 tries each (alternating, after a warm-up). Target: the medians
// differ by less than 20%. The status and body are the same on both paths (asserted in server/test/login-help.test.ts);
// this measures what tests must not (no timing assertions in tests).
// Database: PostgreSQL when BENCH_DATABASE_URL is set (as production runs), else embedded PGlite.
// Run: npm run bench:enumeration
import { performance } from 'node:perf_hooks';
import {
  FORGOT_PASSWORD_PATH,
  FORGOT_USERNAME_PATH,
  RESET_PASSWORD_PATH,
  SELF_REACTIVATION_PATH,
} from '@portal/contracts/login-help';
import { outbox, securityAnswers, users } from '../server/src/db/schema';
import { and, asc, eq } from 'drizzle-orm';
import { hashSecurityAnswer } from '../server/src/identity/security-answers';
import { startBenchApp } from './support/bench-app';

const TRIES = 50;
const WARM_UP = 10;
const TARGET = 0.2;

const bench = await startBenchApp('enumeration', {
  // The throttles would stop one client after a few tries: raised for the measurement (the per-account email
  // allowance too, so the existing account's path keeps doing its full work).
  LOGIN_HELP_ATTEMPTS_PER_MINUTE: '10000',
  RESET_EMAILS_PER_HOUR: '1000',
});
const { app, database, config } = bench;

// Existing accounts: one per try, as an attacker would name each account once (a single account asked for again and
// again would measure its own counters' row updates, not enumeration). `bench.inactive.N` is disabled for inactivity
// (self-reactivation sends it a code), `bench.active.N` is active (forgot password sends it a link); both have
// security answers. One password hash and one answer hash serve them all.
const ACCOUNTS = WARM_UP + TRIES;
const passwordHash = await app.passwordHasher.hash('bench password long enough for the policy');
const answerHash = await hashSecurityAnswer('blue', app.passwordHasher);
for (const kind of ['inactive', 'active'] as const) {
  const rows = await database.db
    .insert(users)
    .values(
      Array.from({ length: ACCOUNTS }, (_, i) => ({
        username: `bench.${kind}.${i}`,
        email: `bench.${kind}.${i}@example.com`,
        firstName: 'Bench',
        lastName: 'User',
        dob: '1980-01-01',
        passwordHash,
        status: kind === 'active' ? ('active' as const) : ('disabled_inactive' as const),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (rows.length)
    await database.db.insert(securityAnswers).values(
      rows.flatMap(({ id }) =>
        ['first-car', 'first-school', 'childhood-nickname'].map((questionId) => ({
          userId: id,
          questionId,
          answerHash,
        })),
      ),
    );
}

const headers = { 'x-portal-request': '1', origin: 'http://localhost:3000' };
async function timed(url: string, payload: object): Promise<number> {
  const start = performance.now();
  const res = await app.inject({ method: 'POST', url, headers, payload });
  const ms = performance.now() - start;
  if (res.statusCode >= 500) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Case {
  name: string;
  url: string;
  existing: (i: number) => object;
  unknown: (i: number) => object;
  /** Runs before the case's warm-up. */
  prepare?: () => Promise<void>;
}

/** Per existing account, a reset link it was sent and that a newer link has since replaced. */
const resetTokens: string[] = [];
async function replacedResetTokens(): Promise<void> {
  for (let i = 0; i < ACCOUNTS; i++) {
    const email = `bench.active.${i}@example.com`;
    const [first] = await database.db
      .select({ data: outbox.data })
      .from(outbox)
      .where(and(eq(outbox.recipient, email), eq(outbox.template, 'password-reset-link')))
      .orderBy(asc(outbox.createdAt))
      .limit(1);
    resetTokens[i] = (first!.data as { token: string }).token;
    await app.inject({
      method: 'POST',
      url: FORGOT_PASSWORD_PATH,
      headers,
      payload: { username: `bench.active.${i}`, email, isInternal: false },
    });
  }
}

const cases: Case[] = [
  {
    name: 'forgot username (email + dob)',
    url: FORGOT_USERNAME_PATH,
    existing: (i) => ({ email: `bench.inactive.${i}@example.com`, dob: '1980-01-01' }),
    unknown: (i) => ({ email: `nobody.${i}@example.com`, dob: '1980-01-01' }),
  },
  {
    name: 'forgot password (username + email)',
    url: FORGOT_PASSWORD_PATH,
    existing: (i) => ({ username: `bench.active.${i}`, email: `bench.active.${i}@example.com`, isInternal: false }),
    unknown: (i) => ({ username: `nobody.${i}`, email: `nobody.${i}@example.com`, isInternal: false }),
  },
  {
    name: 'self-reactivation: request a code (username + dob)',
    url: SELF_REACTIVATION_PATH,
    existing: (i) => ({ step: 'request-code', username: `bench.inactive.${i}`, dob: '1980-01-01' }),
    unknown: (i) => ({ step: 'request-code', username: `nobody.${i}`, dob: '1980-01-01' }),
  },
  {
    name: 'self-reactivation: a wrong code (username + code)',
    url: SELF_REACTIVATION_PATH,
    // After the step above each existing account holds a code; a wrong one is counted against it.
    existing: (i) => ({ step: 'verify-code', username: `bench.inactive.${i}`, code: '000000' }),
    unknown: (i) => ({ step: 'verify-code', username: `nobody.${i}`, code: '000000' }),
  },
  {
    name: 'reset password: a token that is not valid',
    url: RESET_PASSWORD_PATH,
    prepare: replacedResetTokens,
    // A link that was issued (each existing account's, from the forgot-password step) against one never issued.
    existing: (i) => ({ step: 'question', token: resetTokens[i]! }),
    unknown: (i) => ({ step: 'question', token: `B${String(i).padStart(42, 'B')}` }),
  },
];

console.log(`Enumeration timing: median of ${TRIES} tries per path (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'})`);
console.log('endpoint'.padEnd(52), 'existing ms', 'unknown ms', 'difference', 'target < 20%');
let allMet = true;
for (const c of cases) {
  await c.prepare?.();
  for (let i = 0; i < WARM_UP; i++) {
    await timed(c.url, c.existing(TRIES + i));
    await timed(c.url, c.unknown(TRIES + i));
  }
  const existing: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < TRIES; i++) {
    // Alternate which goes first, so drift (caches, autovacuum, GC) falls on both alike.
    if (i % 2) {
      existing.push(await timed(c.url, c.existing(i)));
      unknown.push(await timed(c.url, c.unknown(i)));
    } else {
      unknown.push(await timed(c.url, c.unknown(i)));
      existing.push(await timed(c.url, c.existing(i)));
    }
  }
  const e = median(existing);
  const u = median(unknown);
  const difference = Math.abs(e - u) / Math.min(e, u);
  const met = difference < TARGET;
  allMet &&= met;
  console.log(
    c.name.padEnd(52),
    e.toFixed(2).padStart(11),
    u.toFixed(2).padStart(10),
    `${(difference * 100).toFixed(1)}%`.padStart(10),
    met ? 'met' : 'NOT met',
  );
}

await bench.close();
process.exitCode = allMet ? 0 : 1;
