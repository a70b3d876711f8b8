import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/browser';
import { portalSuite } from './support/portal-suite';

describe('the application shell', () => {
  // A first visit unless a test says otherwise: no jurisdiction chosen, no license accepted.
  const portal = portalSuite({ pageDefaults: { region: false } });

  for (const width of [375, 900, 1440]) {
    it(`renders the home page at ${width} px with bundled fonts, no console or CSP errors, and no axe violations`, async () => {
      const { context, page, problems } = await portal.newPage({ viewport: { width, height: 900 } });
      const response = await page.goto('/');
      // The server's HTML already names the page (search engines and the first paint read it before any script).
      expect(await response?.text()).toContain('<title>Home | Medicare Provider Portal</title>');
      await page.locator('#home-title').waitFor();
      expect((await page.locator('h1').textContent())?.trim()).not.toBe('');
      expect(await page.title()).toBe('Home | Medicare Provider Portal');
      await expect.poll(() => page.getByRole('banner').textContent()).toContain('Medicare Provider Portal');
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.fonts.check('16px Lato'))).toBe(true);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(248, 250, 252)');
      await expectNoAxeViolations(page);
      await screenshot(page, `home-${width}`);
      expect(problems).toEqual({ consoleErrors: [], cspViolations: [], foreignRequests: [] });
      await context.close();
    });
  }

  it('answers an unknown topic 404 with the app around it', async () => {
    const { context, page } = await portal.newPage({ allowConsoleErrors: [/status of 404/] });
    const response = await page.goto('/topics/anything');
    expect(response?.status()).toBe(404);
    await page.getByTestId('current-jurisdiction').waitFor();
    await context.close();
  });

  it('shows a not-found page with a way home for unknown routes', async () => {
    const { context, page } = await portal.newPage({ allowConsoleErrors: [/status of 404/], region: 'J8B' });
    expect((await page.goto('/no/such/page'))?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('lets keyboard users skip to the main content', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/');
    await page.locator('#home-title').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await context.close();
  });

  it('answers unknown API paths with the JSON 404', async () => {
    const res = await fetch(`${portal.url}/api/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ errorMessage: 'Not_Found' });
  });
});
