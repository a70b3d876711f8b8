// Soak gate (docs/decisions/0037-bench-gates.md): the mix at half rate for BENCH_SOAK_MINUTES (10) through nginx to
// one instance started with --expose-gc and METRICS_BENCH_GC=true; every 30 s a forced GC on its metrics port
// (POST /bench/gc, loopback) answers heap used and RSS. Target: each grows ≤ 10 % from minute 2 to the end (with a
// shorter run: from a fifth of it), compared as floors: the lowest sample of the minute from minute 2 against the
// lowest of the last minute. A single sample swings by up to 2 × 19 MB: each password hash in flight holds its
// argon2id memory (m = 19 MiB) and the hashing threads start and end with the logins (idle timeout 60 s); a leak
// raises the floor. Samples every 10 s, so each minute has six. The curve is printed.
// Run alone: npm run bench:soak   (BENCH_SOAK_MINUTES=2 while developing)
import { count5xx, prepareMixData, printMix, runMix } from './mix';
import { check, isMain, summarize, type Check } from './result';
import { startStack, step, type Instance } from './stack';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const SAMPLE_EVERY_S = 10;
const WINDOW_S = 60;

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
            if (second % 30 === 0)
              console.log(
                `  ${(second / 60).toFixed(1).padStart(5)} min  heap ${mb(m.heapUsedBytes)} MB  RSS ${mb(m.rssBytes)} MB`,
              );
          }),
        );
      },
    });
    await Promise.all(pending);
    samples.push({ second: MINUTES * 60 + 1, ...(await forcedGc(instance)) });
    printMix('soak mix', mix);
    samples.sort((a, b) => a.second - b.second);
    const fromSecond = Math.round((MINUTES * 60) / 5);
    const lastSecond = samples.at(-1)!.second;
    const floor = (first: number, key: 'heapUsedBytes' | 'rssBytes') =>
      Math.min(...samples.filter((s) => s.second >= first && s.second <= first + WINDOW_S).map((s) => s[key]));
    const from = { heapUsedBytes: floor(fromSecond, 'heapUsedBytes'), rssBytes: floor(fromSecond, 'rssBytes') };
    const endFrom = lastSecond - WINDOW_S;
    const to = { heapUsedBytes: floor(endFrom, 'heapUsedBytes'), rssBytes: floor(endFrom, 'rssBytes') };
    console.log(
      `  curve (after forced GC): ${samples
        .filter((s) => s.second % 30 === 0)
        .map((s) => `${(s.second / 60).toFixed(1)} min ${mb(s.heapUsedBytes)}/${mb(s.rssBytes)}`)
        .join(', ')} (heap/RSS MB, every 30 s of the 10 s samples)`,
    );
    const growth = (a: number, b: number) => (b - a) / a;
    const heap = growth(from.heapUsedBytes, to.heapUsedBytes);
    const rss = growth(from.rssBytes, to.rssBytes);
    const span = `lowest of minute ${(fromSecond / 60).toFixed(1)}–${((fromSecond + WINDOW_S) / 60).toFixed(1)} → of minute ${(endFrom / 60).toFixed(1)}–${(lastSecond / 60).toFixed(1)}`;
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
