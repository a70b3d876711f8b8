// The deployment the gates run (docs/decisions/0037-bench-gates.md): a PostgreSQL 15 cluster of their own (initdb/
// pg_ctl in a temporary folder, on a free port), the real CMS (Strapi, cms/scripts/start-headless.mjs on a throw-away
// SQLite file), N portal instances started exactly as deploy/systemd/portal@.service starts them (its Environment= and
// ExecStart= lines, with deploy/portal.env.example's settings filled in), and nginx rendered by
// deploy/render-nginx.mjs --standalone in front. The web app and the server must be built (`npm run build`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { openPostgres } from '../../server/src/db/client';
import { rowsOf } from '../../server/src/platform/db-executor';
import { freePort, startStrapi, type RunningStrapi } from '../../server/test/support/strapi';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const PG_BIN = process.env.BENCH_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A line per step, with the time since the gate started, so a slow step shows where it was. */
const started = Date.now();
export function step(message: string) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);
}

function run(command: string, args: string[], asPostgres: boolean) {
  // PostgreSQL refuses to run as root: as root (this machine, CI) its commands run as the `postgres` user.
  const [cmd, argv] =
    asPostgres && process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

export interface Postgres {
  url: string;
  port: number;
  start(): void;
  /** pg_ctl stop -m fast: connections are ended (SQLSTATE 57P01), new ones refused. */
  stop(): void;
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** utime + stime of the cluster's processes now running (the postmaster and its children), in ms. */
  cpuMs(): number;
  close(): Promise<void>;
}

/** A PostgreSQL 15 cluster of the gate's own in a temporary folder (initdb, pg_ctl), with a `portal` database. */
export async function startPostgres(dir: string): Promise<Postgres> {
  const port = await freePort();
  const data = join(dir, 'pgdata');
  mkdirSync(data, { recursive: true });
  if (process.getuid?.() === 0) {
    const { uid, gid } = passwdEntry('postgres');
    chownSync(dir, uid, gid);
    chownSync(data, uid, gid);
  }
  run(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], true);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`;
  const start = () =>
    run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', join(dir, 'postgres.log'), '-o', options, '-w', 'start'], true);
  const stop = () => run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], true);
  start();
  // The server's own PostgreSQL client (node-postgres through Drizzle), two connections.
  const admin = openPostgres(`postgres://postgres@127.0.0.1:${port}/postgres`, 1);
  await admin.db.execute(sql.raw('create database portal'));
  await admin.close();
  const url = `postgres://postgres@127.0.0.1:${port}/portal`;
  const database = openPostgres(url, 2);
  return {
    url,
    port,
    start,
    stop,
    async query<T>(text: string, values: unknown[] = []) {
      return rowsOf<T>(await database.db.execute(withParameters(text, values)));
    },
    cpuMs() {
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      let ms = 0;
      for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        try {
          const fields = procStat(`/proc/${pid}/stat`);
          if (Number(fields[1]) === postmaster) ms += cpuOfStat(fields);
          // The postmaster's own, and its children's that ended (cutime + cstime): a backend whose connection closed
          // during a window (the pool's idle time-out) would otherwise take its CPU out of the sum.
          else if (Number(pid) === postmaster) ms += cpuOfStat(fields) + endedChildrenCpuOfStat(fields);
        } catch {
          // the process ended meanwhile
        }
      }
      return ms;
    },
    async close() {
      await database.close().catch(() => {});
      try {
        stop();
      } catch {
        // already stopped
      }
    },
  };
}

/** `text` with `$1`, `$2`… bound to `values` (casts such as `$1::int` stay in the text). */
function withParameters(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (let i = 0; i < parts.length; i++)
    chunks.push(i % 2 === 0 ? sql.raw(parts[i]!) : sql`${parameter(values[Number(parts[i]) - 1])}`);
  return sql.join(chunks);
}

/** An array as one PostgreSQL array literal (Drizzle would spread it into a list of parameters). */
const parameter = (value: unknown) =>
  Array.isArray(value) ? `{${value.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}` : value;

function passwdEntry(user: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no ${user} user: install PostgreSQL (Debian's postgresql package)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** KEY=value lines of an env file (deploy/portal.env.example); comments and blank lines skipped. */
function envFile(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** The unit's `Environment=` assignments and `ExecStart=` command line, with %i (the instance: its port) filled in. */
function systemdUnit(port: number): { env: Record<string, string>; command: string[] } {
  const unit = readFileSync(join(repoRoot, 'deploy/systemd/portal@.service'), 'utf8').replaceAll('%i', String(port));
  const env: Record<string, string> = {};
  let execStart = '';
  for (const line of unit.split('\n')) {
    if (line.startsWith('Environment='))
      for (const pair of line.slice('Environment='.length).trim().split(/\s+/)) {
        const [key, ...value] = pair.split('=');
        env[key!] = value.join('=');
      }
    if (line.startsWith('ExecStart=')) execStart = line.slice('ExecStart='.length).trim();
  }
  // `/bin/sh -c '…'`: systemd's own quoting of one argument; `$$` is systemd's escape for `$`.
  const shell = /^(\S+) -c '(.*)'$/.exec(execStart);
  if (!shell) throw new Error(`portal@.service: ExecStart is not "/bin/sh -c '…'": ${execStart}`);
  return { env, command: [shell[1]!, '-c', shell[2]!.replaceAll('$$', '$')] };
}

export interface Instance {
  port: number;
  metricsPort: number;
  child: ChildProcess;
  pid: number;
  /** Everything it printed (JSON log lines). */
  logs: string[];
  exited: Promise<void>;
  /** utime + stime of the process and its threads, in ms (Linux /proc). */
  cpuMs(): number;
  /** The signal, then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface InstanceOptions {
  port: number;
  databaseUrl: string;
  publicUrl: string;
  cms: { url: string; token: string; webhookSecret: string };
  dataDir: string;
  /** Settings on top, for the run (raised rate limits, METRICS_BENCH_GC…). */
  env?: Record<string, string>;
  /** Node's --expose-gc (the soak's forced GC). */
  exposeGc?: boolean;
}

/** Settings the gate fills into deploy/portal.env.example (the rest as there). */
export function portalEnv(options: InstanceOptions): Record<string, string> {
  const example = envFile(join(repoRoot, 'deploy/portal.env.example'));
  // No mail server here: unset SMTP_URL keeps mail in the outbox (the outbox job's behaviour is not what is measured).
  delete example.SMTP_URL;
  return {
    ...example,
    PUBLIC_URL: options.publicUrl,
    DATABASE_URL: options.databaseUrl,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
    ENCRYPTION_KEY: '0'.repeat(64),
    CMS_URL: options.cms.url,
    CMS_TOKEN: options.cms.token,
    CMS_WEBHOOK_SECRET: options.cms.webhookSecret,
    // Production logs one line per request at info; the gates keep warnings and errors (they are counted).
    LOG_LEVEL: 'warn',
    ...options.env,
  };
}

/** One portal instance as deploy/systemd/portal@.service runs it (its command and environment), on `options.port`. */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const unit = systemdUnit(options.port);
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const [shell, flag] = unit.command as [string, string, string];
  let script = unit.command[2]!;
  // The unit's `/usr/bin/node`: this Node when that one is missing (a development machine).
  if (!existsSync('/usr/bin/node')) script = script.replace('/usr/bin/node', process.execPath);
  if (options.exposeGc) script = script.replace('server/dist/main.js', '--expose-gc server/dist/main.js');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...portalEnv(options),
    ...unit.env,
    DATA_DIR: options.dataDir,
  };
  const child = spawn(shell, [flag, script], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => logs.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      // An instance that dies on its own is a finding: its last lines say why.
      if (!stopping) {
        console.log(`  instance on port ${options.port} exited on its own (${signal ?? code}); its last lines:`);
        for (const line of logs.filter((l) => !l.includes('readiness check')).slice(-12))
          console.log(`    ${line.slice(0, 1500)}`);
      }
      resolve();
    }),
  );
  const metricsPort = options.port + 6463;
  // Ready when /readyz says so (migrations applied, database up).
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`instance ${options.port} exited:\n${logs.slice(-20).join('\n')}`);
    const ok = await fetch(`http://127.0.0.1:${options.port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600) throw new Error(`instance ${options.port} not ready after 60 s:\n${logs.slice(-20).join('\n')}`);
    await sleep(100);
  }
  return {
    port: options.port,
    metricsPort,
    child,
    pid: child.pid!,
    logs,
    exited,
    cpuMs: () => processCpuMs(child.pid!),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The fields of a /proc stat file after the command name (`state` first: index 0 is field 3 of proc(5)). */
function procStat(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime of those fields, in ms (clock ticks of 10 ms). */
const cpuOfStat = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) * 10;
/** cutime + cstime of a /proc stat: the CPU of the process's children that ended and were waited for, in ms. */
const endedChildrenCpuOfStat = (fields: string[]) => (Number(fields[13]) + Number(fields[14])) * 10;

/** utime + stime of a process (all its threads) in ms, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  return cpuOfStat(procStat(`/proc/${pid}/stat`));
}

/** utime + stime of one thread of a process (the event loop's: `tid` = `pid`), in ms. */
export function threadCpuMs(pid: number, tid: number): number {
  return cpuOfStat(procStat(`/proc/${pid}/task/${tid}/stat`));
}

/** utime + stime of this process's children that ended and were waited for (e.g. autocannon runs), in ms. */
export function endedChildrenCpuMs(): number {
  return endedChildrenCpuOfStat(procStat('/proc/self/stat'));
}

/** Busy CPU time of the whole machine (every core, process and the kernel; not idle, I/O wait or steal), in ms. */
export function machineBusyMs(): number {
  // /proc/stat's first line: cpu user nice system idle iowait irq softirq steal …
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq] = ticks as [number, number, number, number, number, number, number];
  return (user + nice + system + irq + softirq) * 10;
}

export interface Nginx {
  base: string;
  accessLog: string;
  /** Renders the configuration for `upstreams` again and reloads nginx (SIGHUP). */
  setUpstreams(ports: number[]): Promise<void>;
  stop(): Promise<void>;
}

/** nginx as the production guide runs it by hand: deploy/render-nginx.mjs --standalone, then `nginx -p DIR -c …`. */
export async function startNginx(dir: string, ports: number[]): Promise<Nginx> {
  if (!NGINX) throw new Error('nginx is not installed (Debian: apt-get install nginx)');
  const listen = await freePort();
  const runtime = join(dir, 'nginx');
  const conf = join(runtime, 'nginx.conf');
  const render = (upstreams: number[]) =>
    run(
      process.execPath,
      [
        join(repoRoot, 'deploy/render-nginx.mjs'),
        '--standalone',
        runtime,
        '--listen',
        `127.0.0.1:${listen}`,
        '--upstreams',
        upstreams.map((p) => `127.0.0.1:${p}`).join(','),
        '--web-dist',
        join(repoRoot, 'web/dist'),
        // The instances' settings file: nginx's per-client connection cap and deadlines as in production.
        '--portal-env',
        join(repoRoot, 'deploy/portal.env.example'),
        ...RAISED_NGINX_LIMITS,
      ],
      false,
    );
  render(ports);
  run(NGINX, ['-t', '-q', '-p', runtime, '-c', conf], false);
  const child = spawn(NGINX, ['-p', runtime, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${listen}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  return {
    base,
    accessLog: join(runtime, 'access.log'),
    async setUpstreams(upstreams) {
      render(upstreams);
      child.kill('SIGHUP');
      await sleep(1_000); // the new workers take over; the old ones finish their requests
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

/** The real Strapi; its API token and webhook secret are read from the files it writes for the portal. */
export async function startCms(dir: string): Promise<RunningStrapi & { token: string; webhookSecret: string }> {
  const handover = join(dir, 'cms-handover');
  mkdirSync(handover, { recursive: true });
  const cms = await startStrapi({ portalDataDir: handover });
  const read = (name: string) => readFileSync(join(handover, name), 'utf8').trim();
  return { ...cms, token: read('cms-api-token'), webhookSecret: read('cms-webhook-secret') };
}

export interface Stack {
  dir: string;
  postgres: Postgres;
  cms: Awaited<ReturnType<typeof startCms>>;
  nginx: Nginx;
  instances: Instance[];
  /** Starts (or restarts) instance `index` on its port with the stack's settings. */
  startInstance(index: number, extra?: Partial<InstanceOptions>): Promise<Instance>;
  close(): Promise<void>;
}

/**
 * Settings raised for the run: the load comes from one machine, and the per-client budgets (a person retrying) would
 * refuse it at once. The mix also spreads its callers over many client addresses (X-Forwarded-For).
 */
export const RAISED_LIMITS: Record<string, string> = {
  LOGIN_ATTEMPTS_PER_MINUTE: '10000',
  REGISTRATION_ATTEMPTS_PER_MINUTE: '10000',
  AUTHORITY_CLIENT_MAX_FAILURES: '1000',
  FIND_ADMIN_PER_MINUTE: '10000',
  FIND_ADMIN_PER_DAY: '1000000',
  CONTENT_MISSES_PER_MINUTE: '10000',
};

/**
 * nginx's /api/ rate per client address raised for the run, as RAISED_LIMITS raises the portal's: the mix comes from
 * one address (the load generator's), at about 40 /api/ calls a second. Its connection cap (64 in progress) and its
 * deadlines stay as production renders them.
 */
export const RAISED_NGINX_LIMITS = ['--api-rate', '100000r/s', '--api-burst', '100000'];

/** The whole deployment with `count` instances behind nginx; the first start migrates and seeds the demo data. */
export async function startStack(count: number, extra: Partial<InstanceOptions> = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-gates-'));
  const cleanups: (() => Promise<void>)[] = [];
  try {
    step(`PostgreSQL 15 cluster in ${dir}`);
    const postgres = await startPostgres(dir);
    cleanups.push(() => postgres.close());
    step('the CMS (Strapi, throw-away SQLite)');
    const cms = await startCms(dir);
    cleanups.push(() => cms.stop());
    const ports = await Promise.all(Array.from({ length: count }, () => freeInstancePort()));
    const instances: Instance[] = [];
    const nginxPort = { base: '' };
    const start = async (index: number, more: Partial<InstanceOptions> = {}) => {
      const instance = await startInstance({
        port: ports[index]!,
        databaseUrl: postgres.url,
        publicUrl: nginxPort.base,
        cms: { url: cms.url, token: cms.token, webhookSecret: cms.webhookSecret },
        dataDir: join(dir, `instance-${ports[index]}`),
        ...extra,
        ...more,
        env: { ...RAISED_LIMITS, SEED_DEMO_DATA: index === 0 ? 'true' : 'false', ...extra.env, ...more.env },
      });
      instances[index] = instance;
      return instance;
    };
    // nginx first (its address is the instances' PUBLIC_URL: the origin the CSRF check expects).
    const nginx = await startNginx(dir, ports);
    nginxPort.base = nginx.base;
    cleanups.push(() => nginx.stop());
    step(`${count} portal instance(s) as portal@.service runs them, behind nginx at ${nginx.base}`);
    for (let i = 0; i < count; i++) await start(i);
    cleanups.push(async () => {
      for (const instance of instances) await instance?.stop('SIGTERM');
    });
    return {
      dir,
      postgres,
      cms,
      nginx,
      instances,
      startInstance: start,
      async close() {
        for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** A free port whose metrics port (port + 6463, as portal@.service derives it) is free too. */
async function freeInstancePort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 6463 > 65535) continue;
    const taken = await fetch(`http://127.0.0.1:${port + 6463}/`).then(
      () => true,
      () => false,
    );
    if (!taken) return port;
  }
}
