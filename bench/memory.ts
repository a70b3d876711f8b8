// Memory of the portal process on each engine (docs/decisions/0070-pglite-memory.md): the built server
// (`node server/dist/main.js`, with the settings `npm start` gives it and demo data) is started on a fresh data folder
// with embedded PGlite, then on a throw-away PostgreSQL 15 cluster (initdb/pg_ctl as the gates start one). For each it
// prints the first start's peak RSS (the portal process, and apart the child that creates a new PGlite database), the
// RSS after BENCH_MEMORY_IDLE_SECONDS idle, and the peak and final RSS over BENCH_MEMORY_LOAD_SECONDS of a mixed load
// (pages, an administrator's API calls, logins). Goal for PGlite: ≤ 300 MB idle and after the load, first-start peak
// ≤ 600 MB.
// Then the cost in query time: the same SQL mix on the PGlite database the run just seeded, opened with PGlite's
// defaults (as before decision 0070) and as the server opens it (createPglite: settings, baseline compiler), each
// round in a fresh process, rounds interleaved; the figure is the median ratio settings ÷ defaults (goal ≤ 1.10),
// printed with its range (the machine is shared).
// Build first (`npm run build`). BENCH_MEMORY_SERVER=<path of main.js> measures another build (a previous commit's).
// Run: npm run bench:memory
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../server/test/support/strapi';
import { repoRoot, sleep, startPostgres } from './gates/stack';
import { DEMO_PASSWORD, portalHeaders, totp } from './gates/mix';
import { loadAverage, medianAndRange, summary } from './support/measure';
import { portalNodeFlags } from '../scripts/portal-node.mjs';

const SERVER = resolve(process.env.BENCH_MEMORY_SERVER ?? join(repoRoot, 'server/dist/main.js'));
const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? 35);
const LOAD_SECONDS = Number(process.env.BENCH_MEMORY_LOAD_SECONDS ?? 60);
const QUERY_ROUNDS = Number(process.env.BENCH_MEMORY_QUERY_ROUNDS ?? 6); // pairs: defaults, settings (order alternates)
const QUERY_ITERATIONS = 400; // of the SQL mix per round, after QUERY_WARM_UP
const QUERY_WARM_UP = 100;
const TARGETS = { idleMb: 300, loadMb: 300, firstStartMb: 600, queryRatio: 1.1 };
// The demo administrator (README: Demo accounts) and its TOTP secret (server/src/modules/auth/demo-accounts.ts).
const ADMIN = 'demo.admin.j5';
const ADMIN_TOTP_SECRET = 'DEMOPORTALJ5ADMINTOTPSECRET23456';

const runDir = mkdtempSync(join(tmpdir(), 'portal-bench-memory-'));
chmodSync(runDir, 0o755); // as root, the PostgreSQL cluster's folder inside belongs to the postgres user

/** Resident memory of a process in MB (0 once it has ended). */
function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The processes whose parent is `pid`, and theirs. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Samples the RSS of a process (and, apart, of its descendants) every 100 ms until stopped. */
function sampler(pid: number) {
  let peak = 0;
  let childPeak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
    childPeak = Math.max(
      childPeak,
      descendants(pid).reduce((sum, child) => sum + rssMb(child), 0),
    );
  }, 100);
  return {
    reset() {
      peak = rssMb(pid);
      childPeak = 0;
    },
    read: () => ({ peak, childPeak }),
    stop: () => clearInterval(timer),
  };
}

interface Portal {
  child: ChildProcess;
  base: string;
  logs: string[];
  stop(): Promise<void>;
}

/** The built server as `npm start` runs it (demo data, mail viewer, no CMS: content answers 502), on a free port. */
async function startPortal(env: Record<string, string>): Promise<Portal> {
  const port = await freePort();
  // With the V8 flags `npm start` gives the portal on this engine (scripts/portal-node.mjs), unless BENCH_MEMORY_FLAGS
  // says otherwise (`none`, or a space-separated list: another setting measured by the same bench).
  const chosen = process.env.BENCH_MEMORY_FLAGS;
  const flags =
    chosen === undefined ? portalNodeFlags(env) : chosen === 'none' ? [] : chosen.split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, SERVER], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PORT: String(port),
      METRICS_PORT: String(await freePort()),
      MAIL_VIEWER: 'true',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      CMS_URL: `http://127.0.0.1:${await freePort()}`,
      // The web app this checkout built, for a server bundle built elsewhere (BENCH_MEMORY_SERVER) too.
      WEB_DIST_DIR: join(repoRoot, 'web/dist'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  console.log(`  node flags: ${flags.join(' ') || 'none'}`);
  const logs: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => logs.push(String(chunk)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    logs,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitReady(portal: Portal): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (portal.child.exitCode !== null) throw new Error(`the portal exited:\n${portal.logs.join('').slice(-3000)}`);
    const ok = await fetch(`${portal.base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return (performance.now() - start) / 1000;
    if (performance.now() - start > 180_000) throw new Error('the portal was not ready after 180 s');
    await sleep(100);
  }
}

function sessionCookieOf(res: Response): string | undefined {
  for (const c of res.headers.getSetCookie()) {
    const match = /^((?:__Host-)?portal_session=[^;]+)/.exec(c);
    if (match) return match[1];
  }
  return undefined;
}

let address = 0;
/** Password and TOTP as the demo administrator; answers the session cookie, or undefined when refused. */
async function logIn(base: string, step: number): Promise<string | undefined> {
  const headers = { ...portalHeaders(base), 'x-forwarded-for': `10.9.${(++address >> 8) & 255}.${address & 255}` };
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: ADMIN, password: DEMO_PASSWORD }),
  });
  const pending = sessionCookieOf(login);
  if (!pending) return undefined;
  const mfa = await fetch(`${base}/api/auth/mfa`, {
    method: 'POST',
    headers: { ...headers, cookie: pending },
    body: JSON.stringify({ code: totp(ADMIN_TOTP_SECRET, step) }),
  });
  return sessionCookieOf(mfa);
}

/**
 * The mixed load: four callers in turn ask for the home page, the session, the administrator's people and requests,
 * the DDE requests and the mail viewer; one login (password and TOTP) every 3 s. Answers the count per status.
 */
async function mixedLoad(base: string, seconds: number): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const count = (status: number | string) => (statuses[status] = (statuses[status] ?? 0) + 1);
  // Each TOTP step may be used once per account: the first login takes the step now, later ones the following steps.
  let step = Math.floor(Date.now() / 30_000);
  const cookie = await logIn(base, step);
  if (!cookie) throw new Error('the demo administrator could not log in');
  const calls = ['/', '/api/session', '/api/admin/people', '/api/admin/requests?page=1', '/api/dde-access/requests'];
  const end = Date.now() + seconds * 1000;
  const caller = async (offset: number) => {
    for (let i = offset; Date.now() < end; i++) {
      const res = await fetch(`${base}${calls[i % calls.length]}`, { headers: { ...portalHeaders(base), cookie } });
      await res.arrayBuffer();
      count(res.status);
    }
  };
  const logins = async () => {
    while (Date.now() < end) {
      await sleep(3_000);
      const now = Math.floor(Date.now() / 30_000);
      if (now <= step) continue; // this step's code was used already
      step = now;
      count((await logIn(base, step)) ? 'login ok' : 'login refused');
    }
  };
  await Promise.all([caller(0), caller(1), caller(2), caller(3), logins()]);
  return statuses;
}

interface EngineFigures {
  readySeconds: number;
  firstStartPeak: number;
  initChildPeak: number;
  idle: number;
  loadPeak: number;
  afterLoad: number;
  statuses: Record<string, number>;
}

async function measureEngine(label: string, env: Record<string, string>): Promise<EngineFigures> {
  console.log(`\n${label}: first start on a fresh data folder (${loadAverage()})`);
  const portal = await startPortal(env);
  const samples = sampler(portal.child.pid!);
  try {
    const readySeconds = await waitReady(portal);
    await sleep(IDLE_SECONDS * 1000);
    const { peak: firstStartPeak, childPeak: initChildPeak } = samples.read();
    const idle = rssMb(portal.child.pid!);
    console.log(
      `  ready after ${readySeconds.toFixed(1)} s; peak ${firstStartPeak.toFixed(0)} MB over the first ${IDLE_SECONDS} s` +
        ` (database-creating child: ${initChildPeak ? `${initChildPeak.toFixed(0)} MB` : 'none'}); idle ${idle.toFixed(0)} MB`,
    );
    samples.reset();
    const statuses = await mixedLoad(portal.base, LOAD_SECONDS);
    const afterLoad = rssMb(portal.child.pid!);
    const loadPeak = samples.read().peak;
    console.log(
      `  ${LOAD_SECONDS} s of mixed load: peak ${loadPeak.toFixed(0)} MB, after ${afterLoad.toFixed(0)} MB; answers ${JSON.stringify(statuses)}`,
    );
    return { readySeconds, firstStartPeak, initChildPeak, idle, loadPeak, afterLoad, statuses };
  } finally {
    samples.stop();
    await portal.stop();
  }
}

const queryRound = fileURLToPath(new URL('./support/pglite-query-mix.ts', import.meta.url));

/** Milliseconds for QUERY_ITERATIONS of the SQL mix on `dataDir` opened one way, in a process of its own. */
async function timeQueries(dataDir: string, mode: 'defaults' | 'settings'): Promise<number> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', queryRound, mode, dataDir, String(QUERY_ITERATIONS), String(QUERY_WARM_UP)],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { ms: number }).ms;
}

async function main() {
  console.log(`Server: ${SERVER}`);
  const pgliteData = join(runDir, 'pglite-data');
  const pglite = await measureEngine('PGlite', { DATA_DIR: pgliteData });
  const cluster = await startPostgres(join(runDir, 'postgres'));
  let postgres: EngineFigures;
  try {
    postgres = await measureEngine('PostgreSQL 15', {
      DATA_DIR: join(runDir, 'postgres-data'),
      DATABASE_URL: cluster.url,
    });
  } finally {
    await cluster.close();
  }

  // The query mix on a copy of the database the PGlite portal seeded (its `pgdata`), defaults against settings.
  const copy = join(runDir, 'pglite-queries');
  cpSync(join(pgliteData, 'pgdata'), copy, { recursive: true });
  const ratios: number[] = [];
  const times: Record<'defaults' | 'settings', number[]> = { defaults: [], settings: [] };
  console.log(`\nPGlite query time, ${QUERY_ITERATIONS} × the SQL mix per round (${loadAverage()})`);
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    const order = round % 2 === 0 ? (['defaults', 'settings'] as const) : (['settings', 'defaults'] as const);
    const ms: Record<string, number> = {};
    for (const which of order) ms[which] = await timeQueries(copy, which);
    times.defaults.push(ms.defaults!);
    times.settings.push(ms.settings!);
    ratios.push(ms.settings! / ms.defaults!);
    console.log(
      `  round ${round + 1}: defaults ${ms.defaults!.toFixed(0)} ms, settings ${ms.settings!.toFixed(0)} ms, ratio ${ratios.at(-1)!.toFixed(2)}`,
    );
  }

  const ratio = ratios.length ? summary(ratios).p50 : Number.NaN;
  const line = (name: string, value: number, target: number, unit = ' MB', digits = 0) =>
    console.log(
      `  ${name.padEnd(44)} ${value.toFixed(digits)}${unit}  (target ≤ ${target}${unit})  ${value <= target ? 'PASS' : 'FAIL'}`,
    );
  console.log('\nSummary (RSS of the portal process)');
  console.log('  engine          first-start peak  init child  idle    load peak  after load');
  for (const [name, f] of [
    ['PGlite', pglite],
    ['PostgreSQL 15', postgres],
  ] as const)
    console.log(
      `  ${name.padEnd(15)} ${f.firstStartPeak.toFixed(0).padStart(10)} MB  ${f.initChildPeak.toFixed(0).padStart(7)} MB  ${f.idle
        .toFixed(0)
        .padStart(4)} MB  ${f.loadPeak.toFixed(0).padStart(6)} MB  ${f.afterLoad.toFixed(0).padStart(7)} MB`,
    );
  // End to end: what each engine's portal served under the same load (the machine's other work moves both).
  const answered = (f: EngineFigures) =>
    Object.entries(f.statuses).reduce((n, [status, count]) => n + (/^\d+$/.test(status) ? count : 0), 0);
  console.log(
    `  answers in the ${LOAD_SECONDS} s of load, PGlite ÷ PostgreSQL: ${(answered(pglite) / answered(postgres)).toFixed(2)}`,
  );
  line('PGlite idle', pglite.idle, TARGETS.idleMb);
  line(`PGlite after ${LOAD_SECONDS} s of mixed load`, pglite.afterLoad, TARGETS.loadMb);
  line('PGlite first-start peak (portal process)', pglite.firstStartPeak, TARGETS.firstStartMb);
  if (!ratios.length) return;
  line(`PGlite query time settings ÷ defaults, median of ${QUERY_ROUNDS}`, ratio, TARGETS.queryRatio, '×', 2);
  // The fastest round of each is the least disturbed by the machine's other work: its ratio is a second estimate.
  const fastest = Math.min(...times.settings) / Math.min(...times.defaults);
  console.log(`  fastest round settings ÷ fastest round defaults: ${fastest.toFixed(2)}×`);
  console.log(
    `  (ratio range ${medianAndRange(ratios, 2)}; defaults ${medianAndRange(times.defaults)} ms, settings ${medianAndRange(times.settings)} ms)`,
  );
}

try {
  await main();
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
