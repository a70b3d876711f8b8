// Soak gate (docs/decisions/0037-bench-gates.md): the mix at half rate for BENCH_SOAK_MINUTES (10) through nginx to
// one instance started with --expose-gc and METRICS_BENCH_GC=true; every 30 s a forced GC on its metrics port
// (POST /bench/gc, loopback) answers heap used and RSS. Target: each grows ≤ 10 % from minute 2 to the end (with a
// shorter run: from a fifth of it). The curve is printed.
// Run alone: npm run bench:soak   (BENCH_SOAK_MINUTES=2 while developing)
import { count5xx, prepareMixData, printMix, runMix } from './mix';
import { check, isMain, summarize, type Check } from './result';
import { startStack, step, type Instance } from './stack';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const SAMPLE_EVERY_S = 30;

interface Sample {
  second: number;
  heapUsedBytes: number;
  rssBytes: number;
}

async function forcedGc(instance: Instance): Promise<Omit<Sample, 'second'>> {
  const res = await fetch(`http://127.0.0.1:${instance.metricsPort}/bench/gc`, { method: 'POST' });
  if (!res.ok) throw new Error(`POST /bench/gc answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Omit<Sample, 'second'>;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

export async function runSoakGate(): Promise<Check[]> {
  const stack = await startStack(1, { exposeGc: true, env: { METRICS_BENCH_GC: 'true' } });
  try {
    const instance = stack.instances[0]!;
    step('bench users and their sessions');
    const data = await prepareMixData(stack.postgres, stack.nginx.base);
    step(`soak: the mix at half rate for ${MINUTES} min on one instance; forced GC every ${SAMPLE_EVERY_S} s`);
    const samples: Sample[] = [{ second: 0, ...(await forcedGc(instance)) }];
    const pending: Promise<void>[] = [];
    const mix = await runMix({
      base: stack.nginx.base,
      data,
      seconds: MINUTES * 60,
      scale: 0.5,
      onTick: (second) => {
        if (second % SAMPLE_EVERY_S !== 0) return;
        pending.push(
          forcedGc(instance).then((m) => {
            samples.push({ second, ...m });
            console.log(
              `  ${(second / 60).toFixed(1).padStart(5)} min  heap ${mb(m.heapUsedBytes)} MB  RSS ${mb(m.rssBytes)} MB`,
            );
          }),
        );
      },
    });
    await Promise.all(pending);
    samples.push({ second: MINUTES * 60, ...(await forcedGc(instance)) });
    printMix('soak mix', mix);
    samples.sort((a, b) => a.second - b.second);
    const fromSecond = Math.round((MINUTES * 60) / 5);
    const from = samples.find((s) => s.second >= fromSecond)!;
    const to = samples.at(-1)!;
    console.log(
      `  curve (after forced GC): ${samples.map((s) => `${(s.second / 60).toFixed(1)} min ${mb(s.heapUsedBytes)}/${mb(s.rssBytes)}`).join(', ')} (heap/RSS MB)`,
    );
    const growth = (a: number, b: number) => (b - a) / a;
    const heap = growth(from.heapUsedBytes, to.heapUsedBytes);
    const rss = growth(from.rssBytes, to.rssBytes);
    const span = `minute ${(from.second / 60).toFixed(1)} → ${(to.second / 60).toFixed(1)}`;
    return [
      check(
        'soak',
        `heap used after GC, ${span}`,
        `${mb(from.heapUsedBytes)} → ${mb(to.heapUsedBytes)} MB (${(heap * 100).toFixed(1)} %)`,
        '≤ +10 %',
        heap <= 0.1,
      ),
      check(
        'soak',
        `RSS after GC, ${span}`,
        `${mb(from.rssBytes)} → ${mb(to.rssBytes)} MB (${(rss * 100).toFixed(1)} %)`,
        '≤ +10 %',
        rss <= 0.1,
      ),
      check('soak', '5xx answers during the soak', String(count5xx(mix)), '0', count5xx(mix) === 0),
    ];
  } finally {
    await stack.close();
  }
}

if (isMain(import.meta.url)) process.exitCode = summarize(await runSoakGate());
