// Lighthouse 12 (mobile preset) on the production build with the real Strapi, as a visitor on a phone would meet
// every page (docs/decisions/0034-server-rendered-portal-pages.md): `/` without a jurisdiction and with a region
// cookie, a topic page, the portal's pages as a new visitor (no cookies, like the issue that asked for them), the
// not-found page, and `/account` logged in as a demo account; three runs each; prints the median of every category
// and of FCP, LCP, TBT and CLS against the targets. LIGHTHOUSE_PAGES=login,account (labels containing any of the
// words; a word that is a whole label, such as `/login`, picks that page alone) runs some of them only.
// Chromium: /usr/bin/chromium (CHROME_PATH overrides). Run: npm run bench:lighthouse
// LIGHTHOUSE_RUNS changes the number of runs; LIGHTHOUSE_REPORT_DIR keeps each page's last JSON report there, to read
// its audits (layout-shift-elements, render-blocking-resources, bootup-time, unused-javascript…).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { currentTotp } from '../server/src/identity/mfa/totp';
import { startCms } from '../e2e/support/cms';
import { buildProduction, freePort, startPortal } from '../e2e/support/portal-server';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DEMO_ACCOUNT = 'demo.admin.j5';
const SESSION = '<session>';
const allPages: { label: string; path: string; cookie?: string }[] = [
  { label: '/ (no jurisdiction)', path: '/' },
  { label: '/ (region cookie)', path: '/', cookie: 'region=J5A' },
  { label: 'topic page', path: '/topics/rendering-examples', cookie: 'region=J5A; amaApproved=true' },
  { label: '/login', path: '/login' },
  { label: '/register', path: '/register' },
  { label: '/verify-email', path: '/verify-email' },
  { label: '/login-help/username', path: '/login-help/username' },
  { label: '/login-help/password', path: '/login-help/password' },
  { label: '/reset-password', path: '/reset-password' },
  { label: '/reactivate', path: '/reactivate' },
  { label: '/find-admin', path: '/find-admin' },
  { label: 'not-found page', path: '/no-such-page', cookie: 'region=J5A; amaApproved=true' },
  // Rendered per session, never cached: the session cookie is filled in once the portal runs.
  { label: '/account (logged in)', path: '/account', cookie: `region=J5A; amaApproved=true; ${SESSION}` },
];
const only = process.env.LIGHTHOUSE_PAGES?.split(',').filter(Boolean);
// A word that is a whole label picks that page alone (`/login` without the `/login-help/…` pages).
const picks = (label: string, word: string) =>
  label === word || (!allPages.some((p) => p.label === word) && label.includes(word));
const pages = only ? allPages.filter((p) => only.some((word) => picks(p.label, word))) : allPages;

/** Logs the demo account in (password, then its published TOTP secret) and answers its session cookie. */
async function demoSession(base: string): Promise<string> {
  const headers = { 'content-type': 'application/json', 'x-portal-request': '1', origin: base };
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: DEMO_ACCOUNT, password: DEMO_PASSWORD }),
  });
  const pending = login.headers.getSetCookie()[0]?.split(';')[0];
  if (!login.ok || !pending) throw new Error(`demo login answered ${login.status}`);
  const mfa = await fetch(`${base}/api/auth/mfa`, {
    method: 'POST',
    headers: { ...headers, cookie: pending },
    body: JSON.stringify({ code: await currentTotp(DEMO_TOTP_SECRETS[DEMO_ACCOUNT]!) }),
  });
  if (!mfa.ok) throw new Error(`demo login's second factor answered ${mfa.status}`);
  return mfa.headers.getSetCookie()[0]?.split(';')[0] ?? pending;
}
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const targets: Record<string, (v: number) => boolean> = {
  performance: (v) => v >= 95,
  accessibility: (v) => v === 100,
  'best-practices': (v) => v === 100,
  seo: (v) => v === 100,
  CLS: (v) => v <= 0.02,
};

// A metric Lighthouse could not compute in a run (NaN) is left out of its median.
const median = (values: number[]) => {
  const xs = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return xs.length ? xs[Math.floor(xs.length / 2)]! : NaN;
};

buildProduction();
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
const cms = await startCms({ portalDataDir: dataDir, webhookUrl: `http://localhost:${port}/api/content/webhook` });
const portal = await startPortal({ CMS_URL: cms.url }, { port, dataDir });
const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', '--no-sandbox'] });
const rows: string[] = [];
try {
  // A visitor's cookies are in the browser's jar, where the app reads them too (an extra request header would
  // reach the server only). Lighthouse's storage reset leaves cookies alone.
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  for (const listed of pages) {
    // Logged in just before its runs, so the session is not idle for long.
    const page = listed.cookie?.includes(SESSION)
      ? { ...listed, cookie: listed.cookie.replace(SESSION, await demoSession(portal.url)) }
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
              : String(value);
      const target = targets[key];
      return target ? `${shown}${target(value) ? '' : ' (below target)'}` : shown;
    };
    rows.push(`| ${page.label} | ${[...categories, 'FCP', 'LCP', 'TBT', 'CLS'].map(cell).join(' | ')} |`);
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
console.log('targets: performance ≥ 95, accessibility 100, best practices 100, SEO 100, CLS ≤ 0.02');
console.log('| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
