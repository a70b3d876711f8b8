// Lighthouse 12 (mobile preset) on the production build with the real Strapi, as a visitor on a phone would meet
// every page (docs/decisions/0034-server-rendered-portal-pages.md): every route as each role that sees it (issue 39):
// a first-time visitor (no cookies; `/` with a region cookie and a topic page too), an end user, an end user waiting
// for approval, an administrator with waiting requests and one held for recertification (the demo accounts, logged in
// through the API); three runs each; prints the median of every category and of FCP, LCP, TBT and CLS against the
// targets, then the worst page of each. LIGHTHOUSE_PAGES=login,admin (labels containing any of the words; a word that
// is a whole label, such as `/login`, picks that page alone) runs some of them only.
// Chromium: /usr/bin/chromium (CHROME_PATH overrides). Run: npm run bench:lighthouse
// LIGHTHOUSE_RUNS changes the number of runs; LIGHTHOUSE_REPORT_DIR keeps each page's last JSON report there, to read
// its audits (layout-shift-elements, render-blocking-resources, bootup-time, unused-javascript…).
// Beside each page's figures: the machine's load (1-minute load average, median of the page's runs, over the number
// of cores) and Lighthouse's `benchmarkIndex` (its own measure of the CPU's speed at the run; ~1000+ on a quiet
// desktop, far lower on a busy one), so a page measured while the machine was busy is seen as such (issue 39).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { startCms } from '../e2e/support/cms';
import { buildProduction, freePort, startPortal } from '../e2e/support/portal-server';
import { sessionOf } from './support/demo-session';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const SESSION = '<session>';
const visitorPages: { label: string; path: string; cookie?: string }[] = [
  { label: '/ (no jurisdiction)', path: '/' },
  { label: '/ (region cookie)', path: '/', cookie: 'region=J5A' },
  { label: 'topic page', path: '/topics/rendering-examples', cookie: 'region=J5A; amaApproved=true' },
  { label: '/login', path: '/login' },
  { label: '/register', path: '/register' },
  { label: '/register/user', path: '/register/user' },
  { label: '/verify-email', path: '/verify-email' },
  { label: '/login-help/username', path: '/login-help/username' },
  { label: '/login-help/password', path: '/login-help/password' },
  { label: '/reset-password', path: '/reset-password' },
  { label: '/reactivate', path: '/reactivate' },
  { label: '/find-admin', path: '/find-admin' },
  { label: '/invitation', path: '/invitation' },
  { label: '/logged-out', path: '/logged-out' },
  { label: 'not-found page', path: '/no-such-page', cookie: 'region=J5A; amaApproved=true' },
];
// The logged-in roles (the demo accounts, docs/requirements/staff-accounts.md#demo-data) and the routes each opens.
const ROLES = [
  { role: 'end user', username: 'demo.user.j5' },
  { role: 'waiting end user', username: 'demo.wait.1' },
  { role: 'admin with waiting requests', username: 'demo.admin.j5' },
  { role: 'admin held for recertification', username: 'demo.admin.recert' },
] as const;
const LOGGED_IN_PATHS = ['/', '/portal', '/account', '/dde-access', '/admin', '/admin/recertify'];
const allPages: { label: string; path: string; cookie?: string; username?: string }[] = [
  ...visitorPages,
  ...ROLES.flatMap(({ role, username }) =>
    LOGGED_IN_PATHS.map((path) => ({
      label: `${path} as ${role}`,
      path,
      // Rendered per session, never cached: the session cookie is filled in once the portal runs.
      cookie: `region=J5A; amaApproved=true; ${SESSION}`,
      username,
    })),
  ),
];
const only = process.env.LIGHTHOUSE_PAGES?.split(',').filter(Boolean);
// A word that is a whole label picks that page alone (`/login` without the `/login-help/…` pages).
const picks = (label: string, word: string) =>
  label === word || (!allPages.some((p) => p.label === word) && label.includes(word));
const pages = only ? allPages.filter((p) => only.some((word) => picks(p.label, word))) : allPages;

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const targets: Record<string, (v: number) => boolean> = {
  performance: (v) => v >= 95,
  accessibility: (v) => v === 100,
  'best-practices': (v) => v === 100,
  seo: (v) => v === 100,
  CLS: (v) => v <= 0.02,
  TBT: (v) => v <= 200,
};

// A metric Lighthouse could not compute in a run (NaN) is left out of its median.
const median = (values: number[]) => {
  const xs = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return xs.length ? xs[Math.floor(xs.length / 2)]! : NaN;
};

// LIGHTHOUSE_BUILD=0 measures the build already in web/dist and server/dist (e.g. one a browser test just made).
if (process.env.LIGHTHOUSE_BUILD !== '0') buildProduction();
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
const cms = await startCms({ portalDataDir: dataDir, webhookUrl: `http://localhost:${port}/api/content/webhook` });
const portal = await startPortal({ CMS_URL: cms.url }, { port, dataDir });
const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', '--no-sandbox'] });
const rows: string[] = [];
// Each page's medians, for the worst of each at the end.
const medians: {
  label: string;
  performance: number;
  TBT: number;
  CLS: number;
  load: number;
  benchmarkIndex: number;
}[] = [];
const COLUMNS = [...categories, 'FCP', 'LCP', 'TBT', 'CLS', 'load', 'benchmarkIndex'];
try {
  // A visitor's cookies are in the browser's jar, where the app reads them too (an extra request header would
  // reach the server only). Lighthouse's storage reset leaves cookies alone.
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  for (const listed of pages) {
    // Logged in before its role's first page.
    const page =
      listed.username && listed.cookie?.includes(SESSION)
        ? { ...listed, cookie: listed.cookie.replace(SESSION, await sessionOf(portal.url, listed.username)) }
        : listed;
    await browser.deleteCookie(...(await browser.cookies()));
    if (page.cookie) {
      const pairs = page.cookie.split('; ').map((pair) => pair.split('=') as [string, string]);
      await browser.setCookie(
        ...pairs.map(([name, value]) => ({ name, value, domain: new URL(portal.url).hostname, path: '/' })),
      );
    }
    // Visitors get the page from the page cache (it is rendered once per variant after each publish): the first,
    // rendering request is not what is measured.
    await fetch(`${portal.url}${page.path}`, { headers: page.cookie ? { cookie: page.cookie } : {} });
    const runs: Record<string, number[]> = {};
    const add = (key: string, value: number) => (runs[key] ??= []).push(value);
    // A run whose trace Lighthouse could not read (NO_NAVSTART, NO_FCP… on a loaded machine) is repeated, up to
    // twice the runs in all; its scores would be zeros and its metrics missing.
    for (let run = 0, attempts = 0; run < RUNS && attempts < 2 * RUNS; attempts++) {
      const result = await lighthouse(
        `${portal.url}${page.path}`,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          ...(page.cookie ? { extraHeaders: { cookie: page.cookie } } : {}),
          // The not-found page answers 404 (noindex) on purpose; Lighthouse refuses to audit it otherwise.
          ignoreStatusCode: true,
        },
        // The default config is the mobile preset (Moto G Power, slow 4G, 4× CPU slowdown).
        undefined,
      );
      if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
      const { lhr } = result;
      if (lhr.runtimeError) {
        console.log(`  ${page.label}: run failed (${lhr.runtimeError.code}), repeated`);
        continue;
      }
      run++;
      if (REPORT_DIR) {
        mkdirSync(REPORT_DIR, { recursive: true });
        const name = page.label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
        writeFileSync(join(REPORT_DIR, `${name}.json`), JSON.stringify(lhr));
      }
      for (const category of categories) {
        for (const ref of lhr.categories[category]?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1 && category !== 'performance')
            console.log(`  ${page.label}: ${category} loses on ${ref.id}: ${audit.title}`);
        }
      }
      for (const category of categories) add(category, Math.round((lhr.categories[category]?.score ?? 0) * 100));
      add('FCP', lhr.audits['first-contentful-paint']?.numericValue ?? NaN);
      add('LCP', lhr.audits['largest-contentful-paint']?.numericValue ?? NaN);
      add('TBT', lhr.audits['total-blocking-time']?.numericValue ?? NaN);
      add('CLS', lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN);
      add('load', loadavg()[0]!);
      add('benchmarkIndex', lhr.environment.benchmarkIndex);
    }
    const cell = (key: string) => {
      const value = median(runs[key]!);
      const shown =
        key === 'CLS'
          ? value.toFixed(3)
          : key === 'FCP' || key === 'LCP'
            ? `${(value / 1000).toFixed(1)} s`
            : key === 'TBT'
              ? `${value.toFixed(0)} ms`
              : key === 'load'
                ? `${value.toFixed(1)} / ${cpus().length}`
                : key === 'benchmarkIndex'
                  ? value.toFixed(0)
                  : String(value);
      const target = targets[key];
      return target ? `${shown}${target(value) ? '' : ' (below target)'}` : shown;
    };
    medians.push({
      label: page.label,
      performance: median(runs.performance!),
      TBT: median(runs.TBT!),
      CLS: median(runs.CLS!),
      load: median(runs.load!),
      benchmarkIndex: median(runs.benchmarkIndex!),
    });
    rows.push(`| ${page.label} | ${COLUMNS.map(cell).join(' | ')} |`);
    console.log(rows.at(-1));
  }
  await browser.disconnect();
} finally {
  chrome.kill();
  await portal.stop();
  await cms.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(
  `\nLighthouse 12, mobile preset, median of ${RUNS} runs; ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, Node ${process.version}`,
);
console.log('targets: performance ≥ 95, accessibility 100, best practices 100, SEO 100, CLS ≤ 0.02, TBT ≤ 200 ms');
console.log("load: 1-minute load average / cores during the runs (median); benchmarkIndex: Lighthouse's CPU benchmark");
console.log(
  '| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | load | benchmarkIndex |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);

// The worst page of each measure (issue 39: ≥ 95 everywhere, CLS ≤ 0.02, TBT ≤ 200 ms).
const worst = (key: 'performance' | 'TBT' | 'CLS', lowest: boolean) =>
  medians.filter((m) => !Number.isNaN(m[key])).sort((a, b) => (lowest ? a[key] - b[key] : b[key] - a[key]))[0];
const low = worst('performance', true);
const slow = worst('TBT', false);
const shifty = worst('CLS', false);
// Each worst figure with the machine's state when it was measured.
const when = (m: (typeof medians)[number] | undefined) =>
  m ? ` (load ${m.load.toFixed(1)} / ${cpus().length}, benchmarkIndex ${m.benchmarkIndex.toFixed(0)})` : '';
console.log(`\nworst performance: ${low?.performance} on ${low?.label}${when(low)}`);
console.log(`worst TBT: ${slow?.TBT.toFixed(0)} ms on ${slow?.label}${when(slow)}`);
console.log(`worst CLS: ${shifty?.CLS.toFixed(3)} on ${shifty?.label}${when(shifty)}`);
const loads = medians.map((m) => m.load).filter((x) => !Number.isNaN(x));
const indexes = medians.map((m) => m.benchmarkIndex).filter((x) => !Number.isNaN(x));
console.log(
  `machine during the runs: load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${cpus().length} cores, ` +
    `benchmarkIndex ${Math.min(...indexes).toFixed(0)}–${Math.max(...indexes).toFixed(0)}`,
);
const missed = medians.filter((m) => m.performance < 95 || m.TBT > 200 || m.CLS > 0.02);
console.log(
  missed.length
    ? `${missed.length} of ${medians.length} pages miss a target: ${missed.map((m) => m.label).join('; ')}`
    : `every page (${medians.length}) meets performance ≥ 95, TBT ≤ 200 ms and CLS ≤ 0.02`,
);
