// Logins per second with the configured argon2id parameters, and whether the event loop stays free meanwhile:
// p99 of `GET /api/session` (a logged-in session) at a fixed request rate while logins run flat out, against its
// p99 at the same rate with no login load. Targets: ≥ 100 logins/s per instance; p99 under load ≤ 5× idle.
// A login here is the password step (`POST /api/auth/login`: rate-limit counter, lookup, one argon2id verification
// in the hasher's worker threads, at most PASSWORD_HASH_CONCURRENCY at once and PASSWORD_HASH_NICE below the event
// loop's priority, then one transaction: session insert and audit row); the TOTP step costs no hashing.
// Method: the machine is shared and its load changes by the minute, so a ratio is only measured within one run.
// Three servers run in this process, each with its own password hasher: the defaults (one hash per core, hashing
// threads at nice 10), one core left to the event loop instead (PASSWORD_HASH_CONCURRENCY = cores - 1), and the
// defaults with hashing at the event loop's own priority (PASSWORD_HASH_NICE=0, as before that setting). Short
// windows alternate: in each round one window without logins, then one window of flat-out logins on each server (the
// round's first server rotates). Each figure is the median of the rounds' windows, with their range; the ratio is
// that of the medians (per round ratios printed too). Each window also samples the event loop's own delay: a rise
// there is the event loop blocked or starved of CPU, a rise in the session p99 alone is latency added elsewhere
// (PostgreSQL, the machine).
// Also printed, less dependent on the machine's load: CPU of one argon2id verification (the ceiling: cores / that),
// and CPU per login, in total and on the event loop's thread (Linux /proc; PostgreSQL's own CPU is another process
// and not counted). Figures: bench/results/ (decision docs/decisions/0062).
// Database: PostgreSQL when BENCH_DATABASE_URL is set (as production runs; both servers share it, the bench users
// are reused), else embedded PGlite (one per server), whose SQL runs on the event loop.
// Run: npm run bench:login   (PASSWORD_HASH_MEMORY_KIB / PASSWORD_HASH_ITERATIONS as in production to compare;
//      BENCH_ROUNDS, BENCH_WINDOW_S to change the method)
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SESSION_COOKIE } from '@portal/contracts/auth';
import { inArray } from 'drizzle-orm';
import { users } from '../server/src/db/schema';
import { encryptSecret } from '../server/src/platform/encryption';
import { currentTotp } from '../server/src/identity/mfa/totp';
import { argon2Ceiling } from './support/argon2-ceiling';
import { startBenchApp, type BenchApp } from './support/bench-app';
import {
  autocannon,
  autocannonProcess,
  loadAverage,
  median,
  medianAndRange,
  withLoopDelay,
  type AutocannonResult,
} from './support/measure';

const LOGIN_CONNECTIONS = 16;
const SESSION_RATE = 50; // requests/s of GET /api/session, the same with and without login load
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 5);
const HASH_SAMPLES = 20;
const PASSWORD = 'bench password long enough for the policy';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const cores = availableParallelism();
// BENCH_LOGIN_ACCOUNTS > 1 spreads the logins over that many accounts (the per-account lockout gate locks each
// account's row; one account, the default, makes every login wait for the same row).
const accountCount = Number(process.env.BENCH_LOGIN_ACCOUNTS ?? 1);
const LOGIN_ACCOUNTS =
  accountCount > 1 ? Array.from({ length: accountCount }, (_, i) => `bench.login.${i + 1}`) : ['bench.login'];

interface Server extends BenchApp {
  label: string;
  /** The logged-in session whose state `GET /api/session` reads. */
  sessionCookie: string;
}

/**
 * One server with at most `concurrency` hashes at once in threads `nice` below the event loop (undefined: the
 * setting's default), its two bench users, and a logged-in session.
 */
async function startServer(concurrency: number, nice?: number): Promise<Server> {
  const bench = await startBenchApp(`login-${concurrency}-${nice ?? 'default'}`, {
    // The per-client throttle would stop a single load generator after 20 attempts: raised for the measurement.
    LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    PASSWORD_HASH_CONCURRENCY: String(concurrency),
    ...(nice === undefined ? {} : { PASSWORD_HASH_NICE: String(nice) }),
  });
  const { app, database, headers } = bench;
  // The accounts that log in over and over (one by default), and one logged-in session whose state is read.
  const benchUsers = [...LOGIN_ACCOUNTS, 'bench.session'];
  await database.db
    .insert(users)
    .values(
      benchUsers.map((username) => ({
        username,
        email: `${username}@example.com`,
        firstName: 'Bench',
        lastName: 'User',
        dob: '1980-01-01',
        passwordHash: '',
        status: 'active' as const,
        totpSecretEncrypted: encryptSecret(app.secrets.encryptionKey, SECRET),
        mfaEnrolledAt: new Date(),
      })),
    )
    .onConflictDoNothing();
  await database.db
    .update(users)
    // A database kept from an earlier run may hold a lockout (e.g. a run stopped mid-window): cleared.
    .set({
      passwordHash: await app.passwordHasher.hash(PASSWORD),
      totpLastStep: null,
      failedLoginCount: 0,
      failedLoginFirstAt: null,
      lockedUntil: null,
    })
    .where(inArray(users.username, benchUsers));
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers,
    payload: { username: 'bench.session', password: PASSWORD },
  });
  const pending = login.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
  const mfa = await app.inject({
    method: 'POST',
    url: '/api/auth/mfa',
    headers: { ...headers, cookie: `${SESSION_COOKIE}=${pending}` },
    payload: { code: await currentTotp(SECRET) },
  });
  if (mfa.statusCode !== 200) throw new Error(`bench session: MFA answered ${mfa.statusCode} ${mfa.body}`);
  const { hashConcurrency, hashNice } = bench.config.passwords;
  return {
    ...bench,
    label: `hashing ${hashConcurrency} at once${hashConcurrency === cores ? ' (default)' : ''}, nice ${hashNice}${nice === undefined ? ' (default)' : ''}`,
    sessionCookie: mfa.cookies.find((c) => c.name === SESSION_COOKIE)!.value,
  };
}

const sessionWindow = (server: Server, seconds = WINDOW_S) =>
  autocannon([
    '-c',
    '2',
    '-R',
    String(SESSION_RATE),
    '-d',
    String(seconds),
    '-H',
    `cookie=${SESSION_COOKIE}=${server.sessionCookie}`,
    `${server.base}/api/session`,
  ]);
const loginWindow = (server: Server, seconds = WINDOW_S) =>
  LOGIN_ACCOUNTS.length > 1
    ? loginsOverAccounts(server, seconds)
    : autocannon([
        '-c',
        String(LOGIN_CONNECTIONS),
        '-d',
        String(seconds),
        '-m',
        'POST',
        ...Object.entries(server.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
        '-b',
        JSON.stringify({ username: LOGIN_ACCOUNTS[0], password: PASSWORD }),
        `${server.base}/api/auth/login`,
      ]);
/** The login load spread over LOGIN_ACCOUNTS, one account per request in turn (bench/support/login-load.mjs). */
const loginsOverAccounts = (server: Server, seconds: number) =>
  autocannonProcess(
    fileURLToPath(new URL('./support/login-load.mjs', import.meta.url)),
    [
      `${server.base}/api/auth/login`,
      String(LOGIN_CONNECTIONS),
      String(seconds),
      JSON.stringify(server.headers),
      JSON.stringify(LOGIN_ACCOUNTS),
      PASSWORD,
    ],
    'logins over accounts',
  );

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
/** CPU time of the main thread (the event loop) in ms, from Linux's /proc (10 ms ticks); NaN elsewhere. */
function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

interface Window {
  sessionP99: number;
  loopDelayP99: number;
}
interface LoadedWindow extends Window {
  loginsPerSecond: number;
  logins: number;
  cpuMs: number;
  loopCpuMs: number;
  loopUtilization: number;
}

/** `GET /api/session` at SESSION_RATE on `server`, with no logins. */
async function idleWindow(server: Server): Promise<Window> {
  const { result, loopDelayP99Ms } = await withLoopDelay(() => sessionWindow(server));
  return { sessionP99: result.latency.p99, loopDelayP99: loopDelayP99Ms };
}

/** `GET /api/session` at SESSION_RATE on `server` while LOGIN_CONNECTIONS log in flat out on it. */
async function loadedWindow(server: Server): Promise<LoadedWindow> {
  const cpuBefore = process.cpuUsage();
  const loopCpuBefore = mainThreadCpuMs();
  const utilizationBefore = performance.eventLoopUtilization();
  const { result, loopDelayP99Ms } = await withLoopDelay(() =>
    Promise.all([loginWindow(server), sessionWindow(server)]),
  );
  const [logins, session] = result as [AutocannonResult, AutocannonResult];
  return {
    sessionP99: session.latency.p99,
    loopDelayP99: loopDelayP99Ms,
    loginsPerSecond: logins.requests.total / WINDOW_S,
    logins: logins.requests.total,
    cpuMs: cpuMs(process.cpuUsage(cpuBefore)),
    loopCpuMs: mainThreadCpuMs() - loopCpuBefore,
    loopUtilization: performance.eventLoopUtilization(utilizationBefore).utilization,
  };
}

const servers: Server[] = [];
try {
  // The defaults (one hash per core, hashing threads niced); one core left to the event loop instead (at least one
  // hash at a time); and the defaults with hashing at the event loop's own priority (as before PASSWORD_HASH_NICE).
  servers.push(await startServer(cores));
  if (cores > 1) servers.push(await startServer(cores - 1));
  servers.push(await startServer(cores, 0));
  const [first] = servers as [Server];
  console.log(
    `argon2id m=${first.config.passwords.hashMemoryKib} KiB, t=${first.config.passwords.hashIterations}, p=1; ${first.database.kind}; ${cores} cores; ${ROUNDS} rounds of ${WINDOW_S} s windows; logins over ${LOGIN_ACCOUNTS.length} account(s); ${loadAverage()}`,
  );
  // The ceiling: CPU time of one argon2id verification here, and the machine's own ceiling whatever the portal does
  // around the hash (bench/support/argon2-ceiling.ts).
  const ceiling = await argon2Ceiling(first.app.passwordHasher, cores, HASH_SAMPLES);
  const verifyMs = ceiling.verifyCpuMs;
  console.log(
    `argon2id verify: ${verifyMs.toFixed(1)} ms CPU each → ceiling ${((cores * 1000) / verifyMs).toFixed(0)} logins/s on ${cores} idle cores`,
  );
  console.log(
    `argon2id verifications with ${first.config.passwords.hashConcurrency} at once and nothing else running: ${ceiling.verifiesPerSecond.toFixed(0)}/s — the ceiling of logins/s on this machine`,
  );
  for (const server of servers) await Promise.all([loginWindow(server, 2), sessionWindow(server, 2)]); // warm-up

  const idle: Window[] = [];
  const loaded = new Map<Server, LoadedWindow[]>(servers.map((s) => [s, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    const window = await idleWindow(first);
    idle.push(window);
    console.log(
      `  round ${round}, no logins: session p99 ${window.sessionP99} ms; event-loop delay p99 ${window.loopDelayP99.toFixed(1)} ms (${loadAverage()})`,
    );
    // Each round starts the loaded windows with another server, so no server always follows the idle window.
    for (const server of [
      ...servers.slice((round - 1) % servers.length),
      ...servers.slice(0, (round - 1) % servers.length),
    ]) {
      const w = await loadedWindow(server);
      loaded.get(server)!.push(w);
      console.log(
        `  round ${round}, logins on ${server.label}: ${w.loginsPerSecond.toFixed(1)} logins/s; session p99 ${w.sessionP99} ms; event-loop delay p99 ${w.loopDelayP99.toFixed(1)} ms (${loadAverage()})`,
      );
    }
  }

  const idleP99 = median(idle.map((w) => w.sessionP99));
  console.log(
    `GET /api/session p99 at ${SESSION_RATE} req/s, median (range) of ${ROUNDS} windows; autocannon reports whole ms:`,
  );
  console.log(
    `  no logins: ${medianAndRange(idle.map((w) => w.sessionP99))} ms; event-loop delay p99 ${medianAndRange(
      idle.map((w) => w.loopDelayP99),
      1,
    )} ms`,
  );
  for (const server of servers) {
    const windows = loaded.get(server)!;
    const loadedP99 = median(windows.map((w) => w.sessionP99));
    const logins = windows.reduce((n, w) => n + w.logins, 0);
    const perLogin = (ms: number) => ms / Math.max(logins, 1);
    const loginCpuMs = perLogin(windows.reduce((n, w) => n + w.cpuMs, 0));
    const loginLoopMs = perLogin(windows.reduce((n, w) => n + w.loopCpuMs, 0));
    console.log(`  ${server.label}:`);
    console.log(
      `    logins/s ${medianAndRange(
        windows.map((w) => w.loginsPerSecond),
        1,
      )} (${LOGIN_CONNECTIONS} connections) — target ≥ 100`,
    );
    console.log(
      `    session p99 under login load ${medianAndRange(windows.map((w) => w.sessionP99))} ms — ${(loadedP99 / Math.max(idleP99, 1)).toFixed(1)}× the idle median (target ≤ 5×; 1 ms floor); per round ${windows
        .map((w, i) => `${(w.sessionP99 / Math.max(idle[i]!.sessionP99, 1)).toFixed(1)}×`)
        .join(', ')}`,
    );
    console.log(
      `    event-loop delay p99 ${medianAndRange(
        windows.map((w) => w.loopDelayP99),
        1,
      )} ms; event loop ${(median(windows.map((w) => w.loopUtilization)) * 100).toFixed(0)}% busy`,
    );
    // What a login costs this process, whatever else the machine runs: CPU (hash threads + event loop) and event-loop
    // time (one thread: its own ceiling). The session requests at SESSION_RATE are counted in, a small share.
    console.log(
      `    per login: ${loginCpuMs.toFixed(1)} ms CPU, ${loginLoopMs.toFixed(1)} ms of it on the event loop's thread → ${Math.min((cores * 1000) / loginCpuMs, 1000 / loginLoopMs).toFixed(0)} logins/s on ${cores} idle cores`,
    );
  }
} finally {
  for (const server of servers) await server.close();
}
