import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterEach, beforeEach, expect } from 'vitest';
import { CHROMIUM_PATH } from './chromium';
import { repoRoot } from './portal-server';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // This machine's network is closed: background services would only fail noisily.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export interface PageProblems {
  consoleErrors: string[];
  cspViolations: string[];
  foreignRequests: string[];
}

export interface OpenPageOptions extends BrowserContextOptions {
  /** Console errors this page is expected to log (e.g. a request the test makes fail on purpose). CSP violations are never allowed. */
  allowConsoleErrors?: RegExp[];
}

interface TrackedPage {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
  allowConsoleErrors: RegExp[];
  /** Opened inside a test (closed after it), not in beforeAll (kept for the file's next tests). */
  ownedByTest: boolean;
  closed: boolean;
}

const tracked = new Set<TrackedPage>();
let inTest = false;

/** Requests each page has sent and not yet seen answered (a lazy chunk or a content fetch still changes the screen). */
const inFlight = new WeakMap<Page, Set<unknown>>();

function trackRequests(page: Page) {
  const pending = new Set<unknown>();
  inFlight.set(page, pending);
  page.on('request', (req) => pending.add(req));
  page.on('requestfinished', (req) => pending.delete(req));
  page.on('requestfailed', (req) => pending.delete(req));
}

/**
 * Waits until the screen has settled: no request of the page in flight, nothing marked aria-busy, no finite
 * animation running (dialog fade-ins, tooltips) and every dialog fully opaque, for several frames in a row (a
 * dialog mounts at opacity 0 and starts fading in on a later frame). axe and layout checks then see what the
 * user ends up with, not a screen that changes while they run.
 */
export async function waitForSettled(page: Page) {
  const pending = inFlight.get(page);
  for (;;) {
    await expect.poll(() => pending?.size ?? 0, { timeout: 30_000 }).toBe(0);
    await page.waitForFunction(
      () => {
        const w = window as unknown as { __calmFrames?: number };
        const opacity = (el: Element | null): number =>
          el ? Number(getComputedStyle(el).opacity) * opacity(el.parentElement) : 1;
        const calm =
          !document.querySelector('[aria-busy="true"]') &&
          document
            .getAnimations()
            .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity) &&
          Array.from(document.querySelectorAll('[role="dialog"]')).every((d) => opacity(d) === 1);
        w.__calmFrames = calm ? (w.__calmFrames ?? 0) + 1 : 0;
        return w.__calmFrames >= 5;
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    await page.evaluate(() => delete (window as unknown as { __calmFrames?: number }).__calmFrames);
    // A request that started while the screen looked calm (a lazy dialog's code) means it is about to change.
    if ((pending?.size ?? 0) === 0) return;
  }
}

/** The screen the test is leaving: zero axe violations, no CSP violation and no console error it did not allow. */
async function checkScreen(entry: TrackedPage) {
  const url = entry.page.url();
  if (!entry.page.isClosed() && url !== 'about:blank') await expectNoAxeViolations(entry.page, url);
  const { consoleErrors, cspViolations } = entry.problems;
  expect(cspViolations, `CSP violations on ${url}`).toEqual([]);
  expect(
    consoleErrors.filter((e) => !entry.allowConsoleErrors.some((p) => p.test(e))),
    `console errors on ${url}`,
  ).toEqual([]);
  // Each screen answers for its own problems.
  consoleErrors.length = 0;
  cspViolations.length = 0;
}

/**
 * A fresh context and page that records console errors, CSP violations and requests leaving our origin, and by
 * default checks every screen the test visits: whenever the test leaves a screen (page.goto, page.reload,
 * context.close, or the end of the test) axe must find no violation, and no CSP violation or console error
 * (beyond `allowConsoleErrors`) may have happened.
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  options: OpenPageOptions = {},
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const { allowConsoleErrors = [], ...contextOptions } = options;
  const context = await browser.newContext({ baseURL, ...contextOptions });
  const page = await context.newPage();
  const problems: PageProblems = { consoleErrors: [], cspViolations: [], foreignRequests: [] };
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (/Content Security Policy/i.test(text)) problems.cspViolations.push(text);
    else problems.consoleErrors.push(text);
  });
  page.on('pageerror', (err) => problems.consoleErrors.push(err.message));
  trackRequests(page);
  const origin = new URL(baseURL).origin;
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) problems.foreignRequests.push(url);
  });

  const entry: TrackedPage = { context, page, problems, allowConsoleErrors, ownedByTest: inTest, closed: false };
  tracked.add(entry);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const close = context.close.bind(context);
  page.goto = async (...args) => {
    await checkScreen(entry);
    return goto(...args);
  };
  page.reload = async (...args) => {
    await checkScreen(entry);
    return reload(...args);
  };
  context.close = async (...args) => {
    if (entry.closed) return;
    entry.closed = true;
    tracked.delete(entry);
    try {
      await checkScreen(entry);
    } finally {
      await close(...args);
    }
  };
  return { context, page, problems };
}

beforeEach(() => {
  inTest = true;
});

// The screen a test ends on is checked too; a page the test opened and left open is closed.
afterEach(async () => {
  inTest = false;
  for (const entry of [...tracked]) {
    if (entry.ownedByTest) await entry.context.close();
    else await checkScreen(entry);
  }
});

/** Starts a browser context as someone who already chose a jurisdiction and accepted the license (the cookies the dialogs set). */
export async function withDialogsCompleted(context: BrowserContext, baseURL: string, region = 'J5A') {
  await context.addCookies([
    { name: 'region', value: region, url: baseURL },
    { name: 'amaApproved', value: 'true', url: baseURL },
  ]);
}

/** axe-core with the WCAG 2.x A/AA rules and best practices: every page must have zero violations. */
export async function expectNoAxeViolations(page: Page, label = page.url()) {
  type Watched = Window & { __changes?: number; __watch?: MutationObserver };
  let results: Awaited<ReturnType<AxeBuilder['analyze']>>;
  // A screen counts as checked only if it did not change while axe ran (a dialog mounting mid-run gives half-faded
  // colours and a hidden page); otherwise it settles again and axe runs again.
  for (let attempt = 1; ; attempt++) {
    await waitForSettled(page);
    await page.evaluate(() => {
      const w = window as Watched;
      w.__changes = 0;
      w.__watch = new MutationObserver((records) => (w.__changes! += records.length));
      w.__watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    const changed = await page.evaluate(() => {
      const w = window as Watched;
      w.__watch?.disconnect();
      return w.__changes ?? 0;
    });
    if (changed === 0 || attempt === 5) break;
  }
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${n.failureSummary ?? ''}`).join(', ')}`,
  );
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/** Saves a screenshot under test-results/screenshots for people to look at (the whole page, or what is in view). */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  const dir = join(repoRoot, 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}

/**
 * Waits until `locator` is visible and wholly inside the viewport, where the eye is (issue 38 item 4: a message that
 * appears above or below what is on screen seems not to appear at all). Fails after `timeout` ms with where it is.
 */
export async function expectInViewport(locator: Locator, timeout = 5000) {
  await locator.waitFor({ state: 'visible', timeout });
  const where = () =>
    locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      // Within a pixel: scrolling "to the nearest edge" can leave a fraction of a pixel past it (852..900.4 of 900).
      const inView =
        box.top >= -1 && box.bottom <= window.innerHeight + 1 && box.left >= -1 && box.right <= window.innerWidth + 1;
      return inView ? 'in view' : `at ${Math.round(box.top)}..${Math.round(box.bottom)} of ${window.innerHeight} px`;
    });
  await expect.poll(where, { timeout }).toBe('in view');
}

/**
 * Resolves once nothing the page asked for is still in flight. A part of a page that hydrates on its own
 * (web/src/lib/lazy-part.tsx) starts loading its code before the page hydrates; until that code is there React drops
 * a click on the part's server markup (its boundary cannot hydrate yet), so "the page has hydrated" includes it.
 */
export async function requestsAnswered(page: Page) {
  await expect.poll(() => inFlight.get(page)?.size ?? 0, { timeout: 30_000 }).toBe(0);
}

/**
 * Opens `path` and waits until React has hydrated the server's HTML (docs/decisions/0018-server-rendering.md), so a
 * click that follows reaches a handler: the session check (`GET /api/session`) is an effect, made once the page has
 * hydrated, and then the code of the page's parts that hydrate on their own has arrived (`requestsAnswered`). The
 * title is no signal: the server's HTML already has it. A page the server redirects (a protected page asked without
 * a session goes to `/login`) is waited for where it lands: that page makes the session check.
 */
export async function gotoHydrated(page: Page, path: string) {
  const hydrated = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/session');
  const response = await page.goto(path);
  await hydrated;
  await requestsAnswered(page);
  return response;
}
