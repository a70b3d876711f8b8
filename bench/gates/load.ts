// Load gate and login-ratio gate (docs/decisions/0037-bench-gates.md).
// Load: the mix (bench/gates/mix.ts) through nginx to two instances for BENCH_LOAD_SECONDS (60) at its fixed rates →
// zero 5xx and client errors, zero lost writes (DDE rows in the database = the 2xx answers, each once), p99 per type.
// Then the same mix with nginx sending everything to one instance: requests per CPU-second of the portal processes
// (/proc/<pid>/stat utime + stime) with two instances ≥ 0.9 × with one.
// Login ratio: flat-out password logins (autocannon, 16 connections, BENCH_LOGIN_SECONDS) on each instance alone ÷ the
// machine's argon2id ceiling measured just before and after in this process with the instances' settings ≥ 0.8.
// Run alone: npm run bench:load   (BENCH_LOAD_SECONDS=15 BENCH_LOGIN_SECONDS=5 while developing)
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../server/src/config';
import { PasswordHasher } from '../../server/src/platform/password-hashing';
import { argon2Ceiling } from '../support/argon2-ceiling';
import { autocannon, loadAverage } from '../support/measure';
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
import { portalEnv, startStack, step, type Instance, type Stack } from './stack';

const LOAD_SECONDS = seconds('BENCH_LOAD_SECONDS', 60);
const LOGIN_SECONDS = seconds('BENCH_LOGIN_SECONDS', 10);
const WARM_UP_SECONDS = 10;

/** The mix with the CPU the serving instances used meanwhile. */
async function measuredMix(stack: Stack, data: MixData, serving: Instance[], seconds: number, scale = 1) {
  const before = serving.map((i) => i.cpuMs());
  const mix = await runMix({ base: stack.nginx.base, data, seconds, scale });
  const perInstance = serving.map((i, k) => (i.cpuMs() - before[k]!) / 1000);
  const cpuSeconds = perInstance.reduce((a, b) => a + b, 0);
  return { mix, cpuSeconds, perInstance, perCpuSecond: countRequests(mix) / cpuSeconds };
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
  type Run = { label: string; serving: Instance[]; mix: MixResult; cpuSeconds: number; idleCpu: number };
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
    const { mix, cpuSeconds, perInstance } = await measuredMix(stack, data, serving, half, scale);
    console.log(`  CPU-s per instance: ${perInstance.map((c) => c.toFixed(2)).join(' + ')}`);
    (scale === 1 ? runs : halfRateRuns).push({
      label,
      serving,
      mix,
      cpuSeconds,
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
    idleCpu: rs.reduce((n, r) => n + r.idleCpu, 0),
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
  checks.push(check('load', 'requests per CPU-second, two ÷ one instance', ratio.toFixed(2), '≥ 0.9', ratio >= 0.9));
  return checks;
}

export async function loginRatioGate(stack: Stack, data: MixData): Promise<Check[]> {
  const checks: Check[] = [];
  const cores = availableParallelism();
  // The instances' own hashing settings (the defaults of deploy/portal.env.example: PASSWORD_HASH_* unset).
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
  const hasher = new PasswordHasher({
    memoryKib: hashMemoryKib,
    iterations: hashIterations,
    maxConcurrent: hashConcurrency,
    niceIncrement: hashNice,
  });
  try {
    for (const [k, instance] of stack.instances.entries()) {
      step(
        `login ratio, instance ${k + 1}: argon2id ceiling, ${LOGIN_SECONDS} s of flat-out logins, ceiling again (${loadAverage()})`,
      );
      const before = await argon2Ceiling(hasher, hashConcurrency);
      const logins = await autocannon([
        '-c',
        '16',
        '-d',
        String(LOGIN_SECONDS),
        '-m',
        'POST',
        ...Object.entries({ ...portalHeaders(stack.nginx.base), 'x-forwarded-for': `10.250.0.${k + 1}` }).flatMap(
          ([h, v]) => ['-H', `${h}=${v}`],
        ),
        '-b',
        JSON.stringify({ username: data.loginUser, password: DEMO_PASSWORD }),
        `http://127.0.0.1:${instance.port}/api/auth/login`,
      ]);
      const after = await argon2Ceiling(hasher, hashConcurrency);
      const ceiling = (before.verifiesPerSecond + after.verifiesPerSecond) / 2;
      const perSecond = logins.requests.total / LOGIN_SECONDS;
      console.log(
        `  argon2id m=${hashMemoryKib} KiB t=${hashIterations}, ${hashConcurrency} at once on ${cores} cores: ceiling ${before.verifiesPerSecond.toFixed(1)} before, ${after.verifiesPerSecond.toFixed(1)} after → ${ceiling.toFixed(1)}/s; logins ${perSecond.toFixed(1)}/s (p99 ${logins.latency.p99} ms)`,
      );
      checks.push(
        check(
          'login',
          `logins/s ÷ argon2id ceiling, instance ${k + 1}`,
          `${perSecond.toFixed(1)} ÷ ${ceiling.toFixed(1)} = ${(perSecond / ceiling).toFixed(2)}`,
          '≥ 0.8',
          perSecond / ceiling >= 0.8,
        ),
      );
    }
  } finally {
    await hasher.close();
  }
  return checks;
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
