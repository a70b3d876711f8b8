import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM_PATH } from './chromium';
import { repoRoot } from './portal-server';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // This machine's network is closed: background services would only fail noisily.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export interface PageProblems {
  consoleErrors: string[];
  cspViolations: string[];
  foreignRequests: string[];
}

/** A fresh context and page that records console errors, CSP violations and requests leaving our origin. */
export async function openPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ baseURL, ...options });
  const page = await context.newPage();
  const problems: PageProblems = { consoleErrors: [], cspViolations: [], foreignRequests: [] };
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (/Content Security Policy/i.test(text)) problems.cspViolations.push(text);
    else problems.consoleErrors.push(text);
  });
  page.on('pageerror', (err) => problems.consoleErrors.push(err.message));
  const origin = new URL(baseURL).origin;
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) problems.foreignRequests.push(url);
  });
  return { context, page, problems };
}

/** Starts a browser context as someone who already chose a jurisdiction and accepted the license (the cookies the dialogs set). */
export async function withDialogsCompleted(context: BrowserContext, baseURL: string, region = 'J5A') {
  await context.addCookies([
    { name: 'region', value: region, url: baseURL },
    { name: 'amaApproved', value: 'true', url: baseURL },
  ]);
}

/** axe-core with the WCAG 2.x A/AA rules and best practices: every page must have zero violations. */
export async function expectNoAxeViolations(page: Page, label = page.url()) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/** Saves a screenshot under test-results/screenshots for people to look at. */
export async function screenshot(page: Page, name: string) {
  const dir = join(repoRoot, 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
