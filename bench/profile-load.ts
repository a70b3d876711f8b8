// Where a page's load spends the main thread (issue 39): Chromium (playwright-core, /usr/bin/chromium) at 4× CPU
// slowdown, as Lighthouse's mobile preset, loads each page PROFILE_LOADS times (default 3: the first with a cold code
// cache) with a CPU profile over the load and the 3 s after it; prints per load the long tasks' blocking time (each
// task's time over 50 ms, summed: Lighthouse's TBT without its simulated network) and the JS busy time, and per page
// the self time by source file (through the build's source maps) and by function, median over the loads.
// Pages: PROFILE_PAGES=/login,/register/user,/portal@demo.admin.j5 (a path, `@` a demo account to log in as).
// Measures the build in web/dist and server/dist as it is (`npm run build` first). Run: npm run bench:profile
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { chromium } from 'playwright-core';
import { startCms } from '../e2e/support/cms';
import { freePort, repoRoot, startPortal } from '../e2e/support/portal-server';
import { sessionOf } from './support/demo-session';

const LOADS = Number(process.env.PROFILE_LOADS ?? 3);
const TOP = Number(process.env.PROFILE_TOP ?? 12);
const pages = (process.env.PROFILE_PAGES ?? '/login,/register/user,/portal@demo.admin.j5').split(',').map((spec) => {
  const [path, username] = spec.split('@') as [string, string | undefined];
  return { path, username, label: username ? `${path} as ${username}` : path };
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, TraceMap | null>();
function traceMap(url: string): TraceMap | null {
  if (!maps.has(url)) {
    const file = /\/assets\/[^?#]+\.js/.exec(url)?.[0];
    try {
      maps.set(url, file ? new TraceMap(readFileSync(join(repoRoot, 'web/dist', `${file}.map`), 'utf8')) : null);
    } catch {
      maps.set(url, null);
    }
  }
  return maps.get(url)!;
}

/** A frame's source file (a package's name for node_modules) and function name, through the source map. */
function where(frame: ProfileNode['callFrame']): { chunk: string; file: string; fn: string } {
  const idle = ['(idle)', '(program)', '(garbage collector)', '(root)'];
  if (idle.includes(frame.functionName))
    return { chunk: frame.functionName, file: frame.functionName, fn: frame.functionName };
  // The build's chunk (its name without the content hash) or the page itself (its inline scripts).
  const chunk = frame.url ? frame.url.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '') || '(page)' : '(native)';
  const map = frame.url ? traceMap(frame.url) : null;
  if (!map) return { chunk, file: chunk, fn: `${frame.functionName || '(anonymous)'} (${chunk})` };
  const pos = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  if (!pos.source) return { chunk, file: chunk, fn: `${frame.functionName || '(anonymous)'} (${chunk}, unmapped)` };
  const source = pos.source;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  const file = pkg ?? source.replace(/^.*?\/src\//, 'src/');
  return { chunk, file, fn: `${pos.name ?? frame.functionName ?? '(anonymous)'} (${file}:${pos.line ?? '?'})` };
}

/** Self time (ms) by key. */
function selfTimes(profile: Profile, key: (w: ReturnType<typeof where>) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const keys = new Map<number, string>();
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (!keys.has(id)) keys.set(id, key(where(byId.get(id)!.callFrame)));
    const k = keys.get(id)!;
    totals.set(k, (totals.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return totals;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'portal-profile-'));
const cms = await startCms({ portalDataDir: dataDir, webhookUrl: `http://localhost:${port}/api/content/webhook` });
const portal = await startPortal({ CMS_URL: cms.url }, { port, dataDir });
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
try {
  for (const page of pages) {
    const cookie = page.username ? await sessionOf(portal.url, page.username) : undefined;
    const loads: {
      tbt: number;
      busy: number;
      chunks: Map<string, number>;
      files: Map<string, number>;
      fns: Map<string, number>;
    }[] = [];
    // One context for the page's loads: the first meets a cold code cache, the next ones a warm one.
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
    const cookies = [
      { name: 'region', value: 'J5A' },
      { name: 'amaApproved', value: 'true' },
    ];
    if (cookie) cookies.push({ name: cookie.split('=')[0]!, value: cookie.slice(cookie.indexOf('=') + 1) });
    await context.addCookies(cookies.map((c) => ({ ...c, url: portal.url })));
    // The long tasks of the load (the page's own observer; bench/ has no DOM types, hence the script as text).
    await context.addInitScript({
      content: `window.__longTasks = []; new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });`,
    });
    for (let i = 0; i < LOADS; i++) {
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await tab.goto(`${portal.url}${page.path}`, { waitUntil: 'load' });
      await tab.waitForTimeout(3000);
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      const longTasks = (await tab.evaluate('window.__longTasks')) as number[];
      const files = selfTimes(profile, (w) => w.file);
      const busy = [...files].filter(([k]) => !['(idle)', '(program)'].includes(k)).reduce((a, [, v]) => a + v, 0);
      loads.push({
        tbt: longTasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
        busy,
        chunks: selfTimes(profile, (w) => w.chunk),
        files,
        fns: selfTimes(profile, (w) => w.fn),
      });
      console.log(
        `${page.label} load ${i + 1}: blocking ${loads.at(-1)!.tbt.toFixed(0)} ms in ${longTasks.length} long tasks, JS busy ${busy.toFixed(0)} ms`,
      );
      await tab.close();
    }
    await context.close();
    const top = (pick: (l: (typeof loads)[number]) => Map<string, number>) => {
      const names = new Set(loads.flatMap((l) => [...pick(l).keys()]));
      return [...names]
        .map((name) => [name, median(loads.map((l) => pick(l).get(name) ?? 0))] as const)
        .filter(([name]) => !['(idle)', '(program)'].includes(name))
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP);
    };
    console.log(
      `\n## ${page.label}: median blocking ${median(loads.map((l) => l.tbt)).toFixed(0)} ms, JS busy ${median(loads.map((l) => l.busy)).toFixed(0)} ms (4× CPU slowdown, ${LOADS} loads)`,
    );
    console.log('self time by chunk:');
    for (const [name, ms] of top((l) => l.chunks)) console.log(`  ${ms.toFixed(0).padStart(5)} ms  ${name}`);
    console.log('self time by file:');
    for (const [name, ms] of top((l) => l.files)) console.log(`  ${ms.toFixed(0).padStart(5)} ms  ${name}`);
    console.log('self time by function:');
    for (const [name, ms] of top((l) => l.fns)) console.log(`  ${ms.toFixed(0).padStart(5)} ms  ${name}`);
    console.log('');
  }
} finally {
  await browser.close();
  await portal.stop();
  await cms.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
