// Load gate and login-ratio gate (docs/decisions/0037-bench-gates.md).
// Load: the mix (bench/gates/mix.ts) through nginx to two instances for BENCH_LOAD_SECONDS (60) at its fixed rates →
// zero 5xx and client errors, zero lost writes (DDE rows in the database = the 2xx answers, each once), p99 per type.
// Then the same mix with nginx sending everything to one instance: requests per CPU-second of the portal processes
// (/proc/<pid>/stat utime + stime) with two instances ÷ with one, printed; the check is that ratio over the machine's
// own figure for it, measured in the same run with a control of the portal's shape that shares nothing
// (bench/gates/control-server.ts: what a second process costs on two shared cores by itself), ≥ 0.9.
// Login ratio: flat-out password logins (autocannon, 16 connections, BENCH_LOGIN_SECONDS) on each instance alone ÷ the
// machine's argon2id ceiling measured just before and after in this process with the instances' settings ≥ 0.8, the
// median of BENCH_LOGIN_ROUNDS rounds; each round also measures a bare login server of the same shape (HTTP, the same
// hasher, the same number of database round trips, nothing else) and prints the portal's logins ÷ its logins: the
// share of the machine's own ceiling for a login that the code keeps.
// Run alone: npm run bench:load   (BENCH_LOAD_SECONDS=15 BENCH_LOGIN_ROUNDS=1 while developing)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/src/config';
import { PasswordHasher, type HashingSettings } from '../../server/src/platform/password-hashing';
import { argon2Ceiling } from '../support/argon2-ceiling';
import { autocannon, loadAverage, median, medianAndRange } from '../support/measure';
import {
  count5xx,
  countErrors,
  countRequests,
  DEMO_PASSWORD,
  ddeRows,
  portalHeaders,
  prepareMixData,
  printMix,
  runMix,
  type MixData,
  type MixResult,
} from './mix';
import { check, isMain, seconds, summarize, type Check } from './result';
import {
  endedChildrenCpuMs,
  machineBusyMs,
  processCpuMs,
  portalEnv,
  sleep,
  startStack,
  step,
  threadCpuMs,
  type Instance,
  type Stack,
} from './stack';
import { freePort } from '../../server/test/support/strapi';
import { around, work as controlWork, type ControlOptions } from './control-server';

const LOAD_SECONDS = seconds('BENCH_LOAD_SECONDS', 60);
const LOGIN_SECONDS = seconds('BENCH_LOGIN_SECONDS', 5);
const LOGIN_ROUNDS = seconds('BENCH_LOGIN_ROUNDS', 3);
const WARM_UP_SECONDS = 10;
/** Verifications per thread in each ceiling measurement: about 3 s at this machine's rate, not a fraction of one. */
const CEILING_SAMPLES = 150;

/** The mix with the CPU the serving instances used meanwhile, all of it and their event loops'. */
async function measuredMix(stack: Stack, data: MixData, serving: Instance[], seconds: number, scale = 1) {
  const eventLoopMs = () => serving.reduce((n, i) => n + threadCpuMs(i.pid, i.pid), 0);
  const before = serving.map((i) => i.cpuMs());
  const eventLoopBefore = eventLoopMs();
  const checkoutsBefore = await poolCheckouts(serving);
  const mix = await runMix({ base: stack.nginx.base, data, seconds, scale });
  const perInstance = serving.map((i, k) => (i.cpuMs() - before[k]!) / 1000);
  const eventLoopSeconds = (eventLoopMs() - eventLoopBefore) / 1000;
  const checkouts = (await poolCheckouts(serving)) - checkoutsBefore;
  const cpuSeconds = perInstance.reduce((a, b) => a + b, 0);
  return { mix, cpuSeconds, eventLoopSeconds, perInstance, checkouts, perCpuSecond: countRequests(mix) / cpuSeconds };
}

/** Password verifications in a mix: one per login (its first request; the second is the TOTP step). */
const verificationsOf = (mix: MixResult) => (mix.routes.find((r) => r.name === 'login')?.requests ?? 0) / 2;

/** The instances' own hashing settings (the defaults of deploy/portal.env.example: PASSWORD_HASH_* unset). */
function instanceHashing(stack: Stack): HashingSettings & { maxConcurrent: number } {
  const config = loadConfig({
    ...portalEnv({
      port: stack.instances[0]!.port,
      databaseUrl: stack.postgres.url,
      publicUrl: stack.nginx.base,
      cms: { url: stack.cms.url, token: stack.cms.token, webhookSecret: stack.cms.webhookSecret },
      dataDir: stack.dir,
    }),
    NODE_ENV: 'production',
  });
  const { hashMemoryKib, hashIterations, hashConcurrency, hashNice } = config.passwords;
  return {
    memoryKib: hashMemoryKib,
    iterations: hashIterations,
    maxConcurrent: hashConcurrency,
    niceIncrement: hashNice,
  };
}

/** Database pool checkouts so far (a statement, or a transaction's several), summed over `instances`' metrics. */
async function poolCheckouts(instances: Instance[]): Promise<number> {
  let total = 0;
  for (const instance of instances) {
    const text = await fetch(`http://127.0.0.1:${instance.metricsPort}/metrics`).then((r) => r.text());
    const line = /^portal_db_pool_acquire_seconds_count(?:\{[^}]*\})? (\S+)$/m.exec(text);
    total += Number(line?.[1] ?? 0);
  }
  return total;
}

/** Zero lost writes: every DDE key answered 2xx has exactly one row; no key has two; rows = 2xx answers. */
async function lostWrites(stack: Stack, mix: MixResult) {
  const rows = await ddeRows(stack.postgres, mix.dde.keys());
  let ok2xx = 0;
  let missing = 0;
  let duplicated = 0;
  let unanswered = 0;
  for (const [key, status] of mix.dde) {
    const n = rows.get(key) ?? 0;
    if (n > 1) duplicated++;
    if (status !== undefined && status >= 200 && status < 300) {
      ok2xx++;
      if (n !== 1) missing++;
    } else if (status === undefined) unanswered++;
  }
  const total = [...rows.values()].reduce((a, b) => a + b, 0);
  return { ok2xx, total, missing, duplicated, unanswered };
}

export async function loadGate(stack: Stack, data: MixData): Promise<Check[]> {
  const checks: Check[] = [];
  const [a, b] = stack.instances as [Instance, Instance];
  step(`warm-up: ${WARM_UP_SECONDS} s of the mix (caches, connections, JIT)`);
  await runMix({ base: stack.nginx.base, data, seconds: WARM_UP_SECONDS });

  // Two instances, then one, then one, then two (half the time each): a drift of the shared machine's load, or the
  // instances warming up, falls on both alike. In the middle, one instance at half the rate: the rate each instance
  // serves in the two-instance runs. A Node process spends more CPU per request at a lower rate (fewer requests share
  // each wake-up, garbage collection and timer work), which the two-instance runs pay without anything being shared;
  // that run measures it, so the ratio over the same per-instance rate can be printed too.
  const half = LOAD_SECONDS / 2;
  type Run = {
    label: string;
    serving: Instance[];
    mix: MixResult;
    cpuSeconds: number;
    eventLoopSeconds: number;
    checkouts: number;
    idleCpu: number;
  };
  const runs: Run[] = [];
  const halfRateRuns: Run[] = [];
  for (const [count, scale] of [
    [2, 1],
    [1, 1],
    [1, 0.5],
    [1, 0.5],
    [1, 1],
    [2, 1],
  ] as const) {
    const serving = count === 2 ? [a, b] : [a];
    const label = count === 2 ? 'two instances' : scale === 1 ? 'one instance' : 'one instance at half the rate';
    await stack.nginx.setUpstreams(serving.map((i) => i.port));
    step(
      `load: the mix${scale === 1 ? '' : ' at half the rate'} for ${half} s through nginx to ${count === 2 ? 'two instances' : 'one instance'} (${loadAverage()})`,
    );
    const idleBefore = b.cpuMs();
    const { mix, cpuSeconds, eventLoopSeconds, perInstance, checkouts } = await measuredMix(
      stack,
      data,
      serving,
      half,
      scale,
    );
    console.log(`  CPU-s per instance: ${perInstance.map((c) => c.toFixed(2)).join(' + ')}`);
    (scale === 1 ? runs : halfRateRuns).push({
      label,
      serving,
      mix,
      cpuSeconds,
      eventLoopSeconds,
      checkouts,
      idleCpu: (b.cpuMs() - idleBefore) / 1000,
    });
    printMix(label, mix);
  }
  await stack.nginx.setUpstreams([a.port, b.port]);
  const twoRuns = runs.filter((r) => r.serving.length === 2);
  const oneRuns = runs.filter((r) => r.serving.length === 1);
  let retried = 0;
  for (const r of [...runs, ...halfRateRuns]) retried += await r.mix.retryUnansweredDde();
  console.log(`  DDE requests in flight when a run stopped, sent again with their idempotency key: ${retried}`);
  let ok2xx = 0;
  let total = 0;
  let missing = 0;
  let duplicated = 0;
  let unanswered = 0;
  for (const r of [...runs, ...halfRateRuns]) {
    const w = await lostWrites(stack, r.mix);
    ok2xx += w.ok2xx;
    total += w.total;
    missing += w.missing;
    duplicated += w.duplicated;
    unanswered += w.unanswered;
  }
  const all5xx = [...runs, ...halfRateRuns].reduce((n, r) => n + count5xx(r.mix), 0);
  const allErrors = [...runs, ...halfRateRuns].reduce((n, r) => n + countErrors(r.mix), 0);
  checks.push(check('load', '5xx answers (all runs)', String(all5xx), '0', all5xx === 0));
  checks.push(check('load', 'client errors and time-outs', String(allErrors), '0', allErrors === 0));
  checks.push(
    check(
      'load',
      'lost writes (DDE)',
      `${ok2xx} answered 2xx, ${total} rows; ${missing} missing, ${duplicated} duplicated, ${unanswered} unanswered`,
      'rows = 2xx answers, each once',
      missing === 0 && duplicated === 0 && unanswered === 0 && total === ok2xx,
    ),
  );
  for (const name of runs[0]!.mix.routes.map((r) => r.name)) {
    const p99 = (rs: typeof runs) => Math.max(...rs.map((r) => r.mix.routes.find((x) => x.name === name)!.p99));
    console.log(
      `  p99 ${name.padEnd(12)} two instances ${p99(twoRuns)} ms, one instance ${p99(oneRuns)} ms (worst of the runs)`,
    );
  }
  const sum = (rs: typeof runs) => ({
    requests: rs.reduce((n, r) => n + countRequests(r.mix), 0),
    cpuSeconds: rs.reduce((n, r) => n + r.cpuSeconds, 0),
    eventLoopSeconds: rs.reduce((n, r) => n + r.eventLoopSeconds, 0),
    verifications: rs.reduce((n, r) => n + verificationsOf(r.mix), 0),
    idleCpu: rs.reduce((n, r) => n + r.idleCpu, 0),
    checkouts: rs.reduce((n, r) => n + r.checkouts, 0),
  });
  const twoSum = sum(twoRuns);
  const oneSum = sum(oneRuns);
  const two = { perCpuSecond: twoSum.requests / twoSum.cpuSeconds };
  const one = { perCpuSecond: oneSum.requests / oneSum.cpuSeconds };
  console.log(
    `  two instances: ${twoSum.requests} requests, ${twoSum.cpuSeconds.toFixed(1)} CPU-s → ${two.perCpuSecond.toFixed(0)} requests per CPU-second`,
  );
  console.log(
    `  one instance:  ${oneSum.requests} requests, ${oneSum.cpuSeconds.toFixed(1)} CPU-s → ${one.perCpuSecond.toFixed(0)} requests per CPU-second (the idle instance used ${oneSum.idleCpu.toFixed(1)} CPU-s meanwhile, not counted)`,
  );
  const halfSum = sum(halfRateRuns);
  const halfRate = { perCpuSecond: halfSum.requests / halfSum.cpuSeconds };
  console.log(
    `  one instance at half the rate: ${halfSum.requests} requests, ${halfSum.cpuSeconds.toFixed(1)} CPU-s → ${halfRate.perCpuSecond.toFixed(0)} requests per CPU-second (${(halfRate.perCpuSecond / one.perCpuSecond).toFixed(2)} × at the full rate: one process's own cost of the lower rate)`,
  );
  console.log(
    `  two instances ÷ one instance at the same per-instance rate (half): ${(two.perCpuSecond / halfRate.perCpuSecond).toFixed(2)} (what instances sharing the database, the rate-limit store and notifications cost; not a check)`,
  );
  const ratio = two.perCpuSecond / one.perCpuSecond;
  console.log(
    `  requests per CPU-second, two ÷ one instance: ${ratio.toFixed(2)} (the issue's target ≥ 0.9; judged below over the machine's own figure for a server of this shape, measured next)`,
  );

  const control = await controlRatio(stack, {
    rate: oneSum.requests / (half * oneRuns.length),
    eventLoopMsPerRequest: (oneSum.eventLoopSeconds * 1000) / oneSum.requests,
    queriesPerRequest: oneSum.checkouts / oneSum.requests,
    hashesPerRequest: oneSum.verifications / oneSum.requests,
    hashing: instanceHashing(stack),
    seconds: half,
  });
  // The check (docs/decisions/0061): on two shared cores a process serving half the rate costs
  // more per request by itself (each wake-up and each hash finds the caches colder), so a control of the portal's
  // shape that shares nothing falls as far below 0.9 as the portal. What the code controls, what instances share, is
  // the portal's ratio over the control's; the ratio alone is printed above.
  const overMachine = ratio / control.ratio;
  checks.push(
    check(
      'load',
      "requests per CPU-second, two ÷ one instance, over the machine's own (a control of the portal's shape sharing nothing)",
      `${ratio.toFixed(2)} ÷ ${control.ratio.toFixed(2)} = ${overMachine.toFixed(2)} (${two.perCpuSecond.toFixed(0)} ÷ ${one.perCpuSecond.toFixed(0)} requests per CPU-second; the control ${control.two.toFixed(0)} ÷ ${control.one.toFixed(0)})`,
      '≥ 0.9',
      overMachine >= 0.9,
    ),
  );
  return checks;
}

const CONTROL_SERVER = fileURLToPath(new URL('./control-server.ts', import.meta.url));

/** `rows` for the control's fixed work so that a request costs about `targetMs` of CPU in this Node. */
function controlRows(targetMs: number): number {
  const cpuMsOf = (rows: number, times: number) => {
    const start = process.cpuUsage();
    for (let i = 0; i < times; i++) controlWork(rows);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / times;
  };
  cpuMsOf(200, 200); // warm-up: the JIT, the young generation
  let rows = 200;
  for (;;) {
    const ms = cpuMsOf(rows, 50);
    if (ms >= targetMs / 2 || rows > 1_000_000) return Math.max(1, Math.round((rows * targetMs) / ms));
    rows *= 2;
  }
}

/**
 * The machine's own two ÷ one: two control processes (bench/gates/control-server.ts) behind the same nginx, then
 * one, then one, then two, each for `seconds` at the rate the portal served. Every request does the same fixed work,
 * calibrated to the portal's event-loop CPU per request, in bursts between as many database round trips as a portal
 * request makes on average (`select 1`: nothing shared); as many requests as the portal's logins verify a password
 * with the portal's hasher and settings. Whatever that ratio loses is the machine's: two processes each serving half
 * the rate, each waking once per round trip and hashing half as often, on two cores the rest of the stack also uses.
 */
async function controlRatio(
  stack: Stack,
  options: Omit<ControlOptions, 'port' | 'rows' | 'databaseUrl'> & {
    rate: number;
    eventLoopMsPerRequest: number;
    seconds: number;
  },
) {
  const { rate, eventLoopMsPerRequest, queriesPerRequest, hashesPerRequest, hashing, seconds } = options;
  const rows = controlRows(eventLoopMsPerRequest);
  const ports = [await freePort(), await freePort()];
  const children = ports.map((port) => {
    const control: ControlOptions = {
      port,
      rows,
      databaseUrl: stack.postgres.url,
      queriesPerRequest,
      hashesPerRequest,
      hashing,
    };
    // The gate's own loader (tsx) runs the control's TypeScript and the portal's hasher it imports.
    return spawn(process.execPath, [...process.execArgv, CONTROL_SERVER, JSON.stringify(control)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  });
  try {
    await Promise.all(
      children.map((child) => new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()))),
    );
    const totals = { 1: { requests: 0, cpuSeconds: 0 }, 2: { requests: 0, cpuSeconds: 0 } };
    for (const count of [2, 1, 1, 2] as const) {
      const serving = children.slice(0, count);
      await stack.nginx.setUpstreams(ports.slice(0, count));
      step(
        `control: ${rate.toFixed(0)} requests/s of ${rows} rows each (~${eventLoopMsPerRequest.toFixed(2)} ms of event-loop CPU), ${queriesPerRequest.toFixed(2)} round trips to PostgreSQL and ${hashesPerRequest.toFixed(3)} password verifications each, for ${seconds} s through nginx to ${count} process(es) sharing nothing (${loadAverage()})`,
      );
      const before = serving.map((c) => processCpuMs(c.pid!));
      const result = await autocannon([
        '-c',
        '10',
        '-R',
        String(Math.round(rate)),
        '-d',
        String(seconds),
        `${stack.nginx.base}/control`,
      ]);
      const cpuSeconds = serving.reduce((n, c, k) => n + (processCpuMs(c.pid!) - before[k]!) / 1000, 0);
      totals[count].requests += result.requests.total;
      totals[count].cpuSeconds += cpuSeconds;
      console.log(`  ${result.requests.total} requests, ${cpuSeconds.toFixed(2)} CPU-s (p99 ${result.latency.p99} ms)`);
    }
    const per = (n: 1 | 2) => totals[n].requests / totals[n].cpuSeconds;
    const ratio = per(2) / per(1);
    console.log(
      `  control: two processes ${per(2).toFixed(0)}, one process ${per(1).toFixed(0)} requests per CPU-second → two ÷ one ${ratio.toFixed(2)} (the machine's own)`,
    );
    return { ratio, two: per(2), one: per(1) };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await sleep(200);
    await stack.nginx.setUpstreams(stack.instances.map((i) => i.port));
  }
}

export async function loginRatioGate(stack: Stack, data: MixData): Promise<Check[]> {
  const checks: Check[] = [];
  const cores = availableParallelism();
  const hashing = instanceHashing(stack);
  const hashConcurrency = hashing.maxConcurrent;
  const hasher = new PasswordHasher(hashing);
  try {
    const storedHash = await hasher.hash(DEMO_PASSWORD);
    for (const [k, instance] of stack.instances.entries()) {
      step(
        `login ratio, instance ${k + 1}: ${LOGIN_ROUNDS} rounds of the argon2id ceiling, ${LOGIN_SECONDS} s of flat-out logins and ${LOGIN_SECONDS} s against a bare login server; the ceiling again (${loadAverage()})`,
      );
      // Rounds, each figure over the mean of the ceilings either side of it: identical 10 s windows on this machine
      // differed by up to 25 % (bench/results/, session 7), so one window decides nothing; the median of the rounds
      // is the figure.
      const ceilings = [await argon2Ceiling(hasher, hashConcurrency, CEILING_SAMPLES)];
      const rounds: { ceiling: number; portal: number; bare: number; split: LoginCpu }[] = [];
      for (let round = 0; round < LOGIN_ROUNDS; round++) {
        const checkoutsBefore = await poolCheckouts([instance]);
        const cpu = loginCpu(stack, instance);
        const logins = await flatOutLogins(
          `http://127.0.0.1:${instance.port}/api/auth/login`,
          { ...portalHeaders(stack.nginx.base), 'x-forwarded-for': `10.250.0.${k + 1}` },
          data.loginUser,
        );
        const split = cpu.perLogin(logins.requests.total);
        const roundTrips = ((await poolCheckouts([instance])) - checkoutsBefore) / logins.requests.total;
        const bare = await bareLogins(stack, hasher, storedHash, roundTrips);
        ceilings.push(await argon2Ceiling(hasher, hashConcurrency, CEILING_SAMPLES));
        const ceiling = (ceilings.at(-2)!.verifiesPerSecond + ceilings.at(-1)!.verifiesPerSecond) / 2;
        const portal = logins.requests.total / LOGIN_SECONDS;
        rounds.push({ ceiling, portal, bare, split });
        console.log(
          `  round ${round + 1}: ceiling ${ceiling.toFixed(1)}/s; logins ${portal.toFixed(1)}/s (${(portal / ceiling).toFixed(2)} × the ceiling, p99 ${logins.latency.p99} ms, ${roundTrips.toFixed(2)} database checkouts each); bare login server ${bare.toFixed(1)}/s (${(bare / ceiling).toFixed(2)} ×)`,
        );
        console.log(
          `    CPU per login, ms: the machine ${split.machine.toFixed(2)} = the portal's event loop ${split.eventLoop.toFixed(2)} + its other threads (the hashing) ${split.otherThreads.toFixed(2)} + PostgreSQL ${split.postgres.toFixed(2)} + the load generator ${split.loadGenerator.toFixed(2)} + the rest (kernel, other processes) ${split.rest.toFixed(2)}; one verification at the ceiling ${((cores * 1000) / ceiling).toFixed(2)}`,
        );
      }
      const byCeiling = rounds.map((r) => r.portal / r.ceiling);
      const bareByCeiling = rounds.map((r) => r.bare / r.ceiling);
      const byBare = rounds.map((r) => r.portal / r.bare);
      console.log(
        `  argon2id m=${hashing.memoryKib} KiB t=${hashing.iterations}, ${hashConcurrency} at once on ${cores} cores: ceiling ${medianAndRange(
          rounds.map((r) => r.ceiling),
          1,
        )}/s; logins ${medianAndRange(
          rounds.map((r) => r.portal),
          1,
        )}/s; bare login server (HTTP, the same hasher, the same round trips as select 1: the machine's own ceiling for a login of this shape) ${medianAndRange(bareByCeiling, 2)} × the ceiling; the portal ${medianAndRange(byBare, 2)} × the bare server (medians of the rounds, range in brackets)`,
      );
      // The arithmetic of the target: at 0.8 × the ceiling a login may take the machine's CPU for 1.25 verifications;
      // what its hash leaves for everything else, and what the portal's event loop and PostgreSQL took of it.
      const verification = (cores * 1000) / median(rounds.map((r) => r.ceiling));
      const budget = verification / 0.8;
      const of = (pick: (s: LoginCpu) => number) => median(rounds.map((r) => pick(r.split))).toFixed(2);
      console.log(
        `  at 0.8 × the ceiling a login may take ${budget.toFixed(2)} ms of the machine's CPU, ${(budget - verification).toFixed(2)} ms beside its verification (${verification.toFixed(2)}); the logins took ${of((s) => s.machine)} ms each: the portal's event loop ${of((s) => s.eventLoop)}, its other threads ${of((s) => s.otherThreads)}, PostgreSQL ${of((s) => s.postgres)}, the load generator ${of((s) => s.loadGenerator)}, the rest ${of((s) => s.rest)} (medians of the rounds)`,
      );
      checks.push(
        check(
          'login',
          `logins/s ÷ argon2id ceiling, instance ${k + 1} (median of ${LOGIN_ROUNDS} rounds)`,
          medianAndRange(byCeiling, 2),
          '≥ 0.8',
          median(byCeiling) >= 0.8,
        ),
      );
    }
  } finally {
    await hasher.close();
  }
  return checks;
}

interface LoginCpu {
  machine: number;
  eventLoop: number;
  otherThreads: number;
  postgres: number;
  loadGenerator: number;
  rest: number;
}

/**
 * Where the machine's CPU went during flat-out logins, from /proc: the instance's event-loop thread and its other
 * threads (the hashing threads, V8's helpers), the PostgreSQL cluster, the load generator (autocannon, a child of
 * this process) and the rest (the kernel's own work, nginx, the idle instance, the CMS, and any PostgreSQL process that
 * ended meanwhile). Start it just before.
 */
function loginCpu(stack: Stack, instance: Instance) {
  const read = () => ({
    machine: machineBusyMs(),
    instance: instance.cpuMs(),
    eventLoop: threadCpuMs(instance.pid, instance.pid),
    postgres: stack.postgres.cpuMs(),
    loadGenerator: endedChildrenCpuMs(),
  });
  const before = read();
  return {
    perLogin(logins: number): LoginCpu {
      const after = read();
      const per = (key: keyof typeof before) => (after[key] - before[key]) / Math.max(logins, 1);
      const split = {
        machine: per('machine'),
        eventLoop: per('eventLoop'),
        otherThreads: per('instance') - per('eventLoop'),
        postgres: per('postgres'),
        loadGenerator: per('loadGenerator'),
      };
      const rest = split.machine - split.eventLoop - split.otherThreads - split.postgres - split.loadGenerator;
      return { ...split, rest };
    },
  };
}

/** Flat-out password logins (16 connections, LOGIN_SECONDS) to `url`. */
function flatOutLogins(url: string, headers: Record<string, string>, username: string) {
  return autocannon([
    '-c',
    '16',
    '-d',
    String(LOGIN_SECONDS),
    '-m',
    'POST',
    ...Object.entries(headers).flatMap(([h, v]) => ['-H', `${h}=${v}`]),
    '-b',
    JSON.stringify({ username, password: DEMO_PASSWORD }),
    url,
  ]);
}

/**
 * Flat-out logins for LOGIN_SECONDS against a bare login server in this process: Node's HTTP server, the JSON body
 * parsed, the password verified by the instances' hasher against a stored hash, `roundTrips` round trips of
 * `select 1` to the stack's PostgreSQL (a whole number per login averaging it), a small JSON answer. Nothing a
 * login needs beyond that: no routing, no validation, no rate limit, no account lookup, no session, no audit. Its
 * logins/s ÷ the argon2id ceiling is the machine's own ceiling for a login of the portal's shape (the HTTP client,
 * the kernel and PostgreSQL on the same two cores as the hashing); answers its logins/s.
 */
async function bareLogins(stack: Stack, hasher: PasswordHasher, storedHash: string, roundTrips: number) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const { password } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { password: string };
      for (let i = 0, trips = around(roundTrips); i < trips; i++) await stack.postgres.query('select 1');
      const ok = await hasher.verify(storedHash, password);
      response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data: { next: 'mfa' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const result = await flatOutLogins(
      `http://127.0.0.1:${port}/login`,
      { 'content-type': 'application/json' },
      'bare',
    );
    return result.requests.total / LOGIN_SECONDS;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Both gates on a fresh two-instance stack. */
export async function runLoadGates(): Promise<Check[]> {
  const stack = await startStack(2);
  try {
    step('bench users and their sessions');
    const data = await prepareMixData(stack.postgres, stack.nginx.base);
    return [...(await loadGate(stack, data)), ...(await loginRatioGate(stack, data))];
  } finally {
    await stack.close();
  }
}

if (isMain(import.meta.url)) process.exitCode = summarize(await runLoadGates());
