import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/browser';
import { portalSuite } from './support/portal-suite';

const SLUG = 'rendering-examples';

async function topicBody(baseURL: string, slug: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/content/topics?filters[slug][$eq]=${slug}&populate=*`);
  const json = (await res.json()) as { data: { attributes: { body: string } }[] };
  return json.data[0]!.attributes.body;
}

describe('content pages from the CMS', () => {
  const portal = portalSuite();
  let context: BrowserContext;
  let page: Page;

  // One page for the whole file, its dialogs completed up front (every page but `/` would open them).
  beforeAll(async () => {
    // An unknown or draft topic answers 404, which the browser reports as a failed load.
    ({ context, page } = await portal.newPage({
      viewport: { width: 1280, height: 900 },
      allowConsoleErrors: [/status of 404/],
    }));
  });

  async function openTopic(slug = SLUG) {
    await page.goto(`/topics/${slug}`);
    await page.locator('article h1').waitFor();
  }

  it('home shows the CMS hero and the topics for the chosen jurisdiction, with no axe violations', async () => {
    await page.goto('/');
    await page.locator('#topics-title').waitFor();
    await expect.poll(() => page.locator('#topics-title').textContent()).toBe('Topics for J5 MAC Part A');
    await expect.poll(() => page.locator('main ul li a').count()).toBeGreaterThan(3);
    // The seeded Part B claims topic is featured, but a J5 Part A office sees neither its card nor its topic.
    const featured = page.locator('section[aria-labelledby="featured-title"]');
    await expect.poll(() => featured.textContent()).toContain('Appeals: asking for a redetermination');
    expect(await featured.textContent()).not.toContain('Submitting Part B claims electronically');
    expect(await page.locator('main').textContent()).not.toContain('Submitting Part B claims electronically');
    await expectNoAxeViolations(page, 'home with content');
    await screenshot(page, 'home-content');
  });

  it('renders a topic with every markdown feature and no axe violations', async () => {
    await openTopic();
    const article = page.locator('article');
    expect(await article.locator('table').count()).toBeGreaterThan(0);
    expect(await article.locator('del').count()).toBeGreaterThan(0);
    expect(await article.locator('input[type="checkbox"]').count()).toBeGreaterThan(0);
    expect(await article.locator('section.footnotes, [data-footnotes]').count()).toBe(1);
    await expectNoAxeViolations(page, 'topic');
    await screenshot(page, 'topic');
  });

  it('neutralises javascript: links', async () => {
    await openTopic();
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await page.locator('article').innerHTML()).not.toMatch(/javascript:/i);
  });

  it('reduces image sources to their path, served on our origin', async () => {
    await openTopic();
    const images = await page.locator('article img').evaluateAll((imgs) =>
      imgs.map((i) => ({
        src: i.getAttribute('src'),
        loaded: (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
      })),
    );
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image.src).toMatch(/^\/uploads\//);
    }
    await page.locator('article img').first().scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        page
          .locator('article img')
          .first()
          .evaluate((i) => (i as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
  });

  it('opens other sites in a new tab, with the tooltip "In a new tab, visit {address}"', async () => {
    await openTopic();
    const external = page.locator('article a[target="_blank"]');
    expect(await external.count()).toBeGreaterThan(0);
    for (const link of await external.all()) expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    const first = external.first();
    const href = await first.getAttribute('href');
    await first.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(`In a new tab, visit ${href}`);
    const [popup] = await Promise.all([context.waitForEvent('page'), first.click()]);
    // The portal stays where it was; the other site is in its own tab.
    expect(new URL(page.url()).pathname).toBe(`/topics/${SLUG}`);
    await popup.close();
    // The pointer leaves the link: the tooltip goes, as it would for a user.
    await page.mouse.move(0, 0);
    await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
  });

  it('keeps # links on the page', async () => {
    await openTopic();
    const inPage = page.locator('article a[href^="#"]:not([data-footnote-ref]):not([data-footnote-backref])').first();
    const target = (await inPage.getAttribute('href'))!.slice(1);
    await inPage.click();
    await expect
      .poll(() =>
        page.evaluate((id) => {
          const r = document.getElementById(decodeURIComponent(id))!.getBoundingClientRect();
          return r.top >= 0 && r.top < window.innerHeight;
        }, target),
      )
      .toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/topics/${SLUG}`);
  });

  it('navigates in the app, without a reload, for / links and links to our own domain', async () => {
    const body = await topicBody(portal.url, SLUG);
    const ownDomain = /\]\((https?:\/\/localhost(?::\d+)?(\/[^)\s]*))\)/.exec(body);
    const slashLink = /\]\((\/[^)\s]*)\)/.exec(body);
    expect(ownDomain, 'the topic links to our own domain').not.toBeNull();
    expect(slashLink, 'the topic has a / link').not.toBeNull();
    for (const path of [ownDomain![2]!, slashLink![1]!]) {
      await openTopic();
      await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
      const link = page.locator(`article a[href="${path}"]`).first();
      expect(await link.getAttribute('target')).toBeNull();
      await link.click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(path.split(/[?#]/)[0]);
      expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    }
  });

  it("answers 'This content was not found.' for a draft or unknown topic, with a way home", async () => {
    for (const slug of ['draft-topic-example', 'no-such-topic']) {
      await page.goto(`/topics/${slug}`);
      await page.getByRole('heading', { name: 'This content was not found.' }).waitFor();
      expect(await page.getByRole('link', { name: 'Go to the home page' }).count()).toBe(1);
    }
    await expectNoAxeViolations(page, 'content not found');
  });

  it('Print hides everything but the article and prints after 500 ms', async () => {
    await openTopic();
    await page.evaluate(() => {
      const w = window as unknown as { __printed?: { at: number; header: string; article: string }; print: () => void };
      w.print = () => {
        w.__printed = {
          at: performance.now(),
          header: getComputedStyle(document.querySelector('header')!).visibility,
          article: getComputedStyle(document.querySelector('article')!).visibility,
        };
      };
    });
    const clickedAt = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Print' }).click();
    const printed = await page
      .waitForFunction(() => (window as unknown as { __printed?: unknown }).__printed)
      .then((h) => h.jsonValue() as Promise<{ at: number; header: string; article: string }>);
    expect(printed.at - clickedAt).toBeGreaterThanOrEqual(500);
    expect(printed).toMatchObject({ header: 'hidden', article: 'visible' });
    // Afterwards the page is whole again.
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.querySelector('header')!).visibility), {
        timeout: 5000,
      })
      .toBe('visible');
  });
});
