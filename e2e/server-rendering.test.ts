import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, waitForSettled, withDialogsCompleted } from './support/browser';
import { portalSuite } from './support/portal-suite';

// Seeded content (cms/src/seed/content.js).
const HERO_TITLE = 'Medicare guidance for your region';
const TOPIC_SLUG = 'rendering-examples';
const TOPIC_TITLE = 'Reading this site: links, tables and notes';
const TOPIC_TEXT = 'Guidance pages on this site share a few conventions.';

/** Counts the style rules the page inserts through the CSSOM (how emotion adds a rule in a production build). */
async function countInsertedStyleRules(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __styleRulesInserted: number };
    w.__styleRulesInserted = 0;
    const insertRule = CSSStyleSheet.prototype.insertRule;
    CSSStyleSheet.prototype.insertRule = function (rule: string, index?: number) {
      w.__styleRulesInserted++;
      return insertRule.call(this, rule, index);
    };
  });
}

/** Hydrated (gotoHydrated): the title is still the server's, `expected`. */
async function expectTitle(page: Page, expected: string) {
  expect(await page.title()).toBe(`${expected} | Medicare Provider Portal`);
}

describe('server-rendered public pages (docs/decisions/0018-server-rendering.md)', () => {
  const portal = portalSuite();

  it('with JavaScript disabled, / and a topic page show their titles and body text', async () => {
    const context = await portal.browser.newContext({ baseURL: portal.url, javaScriptEnabled: false });
    try {
      await withDialogsCompleted(context, portal.url);
      const page = await context.newPage();
      await page.goto('/');
      expect(await page.locator('main').textContent()).toContain(HERO_TITLE);
      expect(await page.locator('#topics-title').textContent()).toBe('Topics for J5 MAC Part A');
      expect(await page.locator('main').textContent()).toContain(TOPIC_TITLE);
      await page.goto(`/topics/${TOPIC_SLUG}`);
      expect(await page.locator('article h1').textContent()).toBe(TOPIC_TITLE);
      expect(await page.locator('article').textContent()).toContain(TOPIC_TEXT);
    } finally {
      await context.close();
    }
  });

  // openPage fails the test on any console error, which is how React reports a hydration mismatch.
  // Hydration inserts no style rule when no dialog is due: the server's style tags hold every rule its render made,
  // so the browser's emotion cache already knows them all (a due dialog brings rules of its own).
  for (const [label, path, title, cookies, status, dialogDue] of [
    ['/ without a jurisdiction', '/', 'Home', false, 200, false],
    ['/ with a jurisdiction', '/', 'Home', true, 200, false],
    ['a topic page (dialogs completed)', `/topics/${TOPIC_SLUG}`, TOPIC_TITLE, true, 200, false],
    ['a topic page (picker dialog due)', `/topics/${TOPIC_SLUG}`, TOPIC_TITLE, false, 200, true],
    ['the not-found page', '/no-such-page', 'Page not found', true, 404, false],
    ['a topic that does not exist', '/topics/no-such-topic', 'Content not found', true, 404, false],
  ] as const) {
    it(`hydrates ${label} without a mismatch, without fetching its content again or parsing its markdown`, async () => {
      // The browser reports the 404 answer of a not-found page as a failed load; nothing else may be logged.
      const { context, page } = await portal.newPage({
        allowConsoleErrors: status === 404 ? [/status of 404/] : [],
        region: cookies ? 'J5A' : false,
      });
      await countInsertedStyleRules(context);
      const contentRequests: string[] = [];
      const parserLoads: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/api/content/')) contentRequests.push(request.url());
        // The markdown arrives parsed with the page: the parser's chunk is for text the server did not render.
        if (pathname.startsWith('/assets/markdown-parser-')) parserLoads.push(pathname);
      });
      const response = await gotoHydrated(page, path);
      expect(response?.status()).toBe(status);
      expect(response?.headers()['content-type']).toContain('text/html');
      // The content, the page's title and a description are in the HTML the server sent; a not-found state is noindex.
      const html = (await response?.text()) ?? '';
      expect(html).toContain('id="portal-server-state"');
      expect(html.match(/<title>[^<]*<\/title>/g)).toEqual([`<title>${title} | Medicare Provider Portal</title>`]);
      expect(html.match(/<meta name="description"/g)).toHaveLength(1);
      expect(html.includes('<meta name="robots" content="noindex">')).toBe(status === 404);
      await expectTitle(page, title);
      expect(contentRequests).toEqual([]);
      await waitForSettled(page);
      const inserted = await page.evaluate(
        () => (window as unknown as { __styleRulesInserted: number }).__styleRulesInserted,
      );
      if (dialogDue) expect(inserted).toBeGreaterThan(0);
      else expect(inserted).toBe(0);
      expect(parserLoads).toEqual([]);
      await context.close();
    });
  }

  it('a topic reached by a link in the app is parsed in the browser and shows its body', async () => {
    const { context, page } = await portal.newPage({ region: 'J5A' });
    const parserLoads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/assets/markdown-parser-')) parserLoads.push(request.url());
    });
    await gotoHydrated(page, '/');
    await page.getByRole('link', { name: TOPIC_TITLE }).click();
    await page.locator('article').getByText(TOPIC_TEXT).waitFor();
    expect(await page.locator('article table').count()).toBeGreaterThan(0);
    expect(parserLoads).toHaveLength(1);
    await context.close();
  });

  it('a page requested with a session cookie holds Log in back until the session check answers', async () => {
    const { context, page } = await portal.newPage();
    // A cookie the server no longer knows: the check answers logged out.
    await context.addCookies([{ name: 'portal_session', value: 'ended-session-id', url: portal.url }]);
    const response = await gotoHydrated(page, '/');
    const html = (await response?.text()) ?? '';
    expect(html).toContain('data-testid="account-control-pending"');
    await expect.poll(() => page.getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
    expect(await page.getByTestId('account-control-pending').count()).toBe(0);
    await context.close();
  });

  it('a rendered page is revalidated with its ETag', async () => {
    const first = await fetch(`${portal.url}/topics/${TOPIC_SLUG}`, {
      headers: { cookie: 'region=J5A; amaApproved=true' },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${portal.url}/topics/${TOPIC_SLUG}`, {
      headers: { cookie: 'region=J5A; amaApproved=true', 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    const missing = await fetch(`${portal.url}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page not found');
  });
});
