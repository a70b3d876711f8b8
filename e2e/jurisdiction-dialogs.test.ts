import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { portalSuite } from './support/portal-suite';

const PICKER_TITLE = 'Get the right info.';
const PICKER_BODY =
  'Medicare policies can vary by state and are different for Part A and Part B. Please click a jurisdiction below.';
const NOTICE = 'NOTE: This website uses cookies.';
const TILES = [
  ['J5 MAC Part A', 'IA, KS, MO, NE Providers'],
  ['J5 MAC Part B', 'IA, KS, MO, NE Providers'],
  ['J8 MAC Part A', 'IN, MI Providers'],
  ['J8 MAC Part B', 'IN, MI Providers'],
];
const DAY = 86_400;

const dialog = (page: Page) => page.getByRole('dialog');
const picker = (page: Page) => page.getByRole('dialog', { name: PICKER_TITLE });
const licenseDialog = (page: Page) => page.getByRole('dialog', { name: 'License agreement' });
const tile = (page: Page, title: string) => page.getByRole('button', { name: new RegExp(`^${title}:`) });

async function regionCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'region');
}

describe('jurisdiction picker and license dialog', () => {
  // Each test starts as a first visit: no jurisdiction chosen, no license accepted.
  const portal = portalSuite({ pageDefaults: { region: false } });

  it('never opens a dialog on /, which shows the tiles inline instead', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: PICKER_TITLE }).waitFor();
    expect(await page.getByText(PICKER_BODY).count()).toBe(1);
    expect(await page.getByText(NOTICE).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Remember my selection' }).count()).toBe(1);
    for (const [title] of TILES) expect(await tile(page, title!).count()).toBe(1);
    // Everything the page loads has arrived (a dialog's code would be among it).
    await page.waitForLoadState('networkidle');
    expect(await dialog(page).count()).toBe(0);
    await context.close();
  });

  it('opens the picker on other pages with the spec texts, 50%-wide tiles and 150×150 maps, and no axe violations', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.goto('/topics/contact');
    await picker(page).waitFor();
    await waitForSettled(page);
    const text = await picker(page).innerText();
    for (const expected of [PICKER_TITLE, PICKER_BODY, NOTICE, 'Remember my selection'])
      expect(text).toContain(expected);
    const names = await picker(page)
      .getByRole('button', { name: /Providers$/ })
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names).toEqual(TILES.map(([title, providers]) => `${title}: ${providers}`));
    expect(text).not.toContain('Choose Jurisdiction');

    const list = await picker(page).getByRole('list', { name: 'Jurisdictions' }).boundingBox();
    for (const item of await picker(page).getByRole('listitem').all()) {
      const box = (await item.boundingBox())!;
      expect(box.width / list!.width).toBeCloseTo(0.5, 2);
    }
    const images = await picker(page)
      .locator('img')
      .evaluateAll((imgs) =>
        imgs.map((img) => ({
          src: new URL((img as HTMLImageElement).src).pathname,
          w: img.getBoundingClientRect().width,
          h: img.getBoundingClientRect().height,
          loaded: (img as HTMLImageElement).naturalWidth > 0,
        })),
      );
    expect(images).toEqual(
      ['J5_A', 'J5_B', 'J8_A', 'J8_B'].map((s) => ({
        src: `/images/jurisdictions/jurisdiction_${s}.svg`,
        w: 150,
        h: 150,
        loaded: true,
      })),
    );
    await screenshot(page, 'picker-1440');
    await context.close();
  });

  it('keeps focus inside the picker', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/topics/contact');
    await picker(page).waitFor();
    // The page behind the picker is hidden from assistive technology while it is open, and the focus is in it.
    expect(await page.locator('#root').getAttribute('aria-hidden')).toBe('true');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await context.close();
  });

  it('remembered choice → region cookie for ≈365 days on the host, SameSite=Lax; reload keeps it', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/topics/contact');
    await picker(page).waitFor();
    await page.getByRole('checkbox', { name: 'Remember my selection' }).check();
    await tile(page, 'J8 MAC Part B').click();
    await expect.poll(() => picker(page).count()).toBe(0);
    const cookie = (await regionCookie(page))!;
    expect(cookie).toMatchObject({ value: 'J8B', path: '/', sameSite: 'Lax', secure: false, domain: 'localhost' });
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(364 * DAY);
    expect(cookie.expires - Date.now() / 1000).toBeLessThan(366 * DAY);
    await page.reload();
    await expect.poll(() => page.getByTestId('current-jurisdiction').textContent()).toBe('Jurisdiction: J8 MAC Part B');
    expect(await picker(page).count()).toBe(0);
    await context.close();
  });

  it('unremembered choice → a session cookie', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/topics/contact');
    await tile(page, 'J5 MAC Part A').click();
    const cookie = (await regionCookie(page))!;
    expect(cookie.value).toBe('J5A');
    expect(cookie.expires).toBe(-1);
    await context.close();
  });

  it('ignores a tampered region cookie', async () => {
    const { context, page } = await portal.newPage();
    await context.addCookies([{ name: 'region', value: 'J9Z', url: portal.url }]);
    await page.goto('/topics/contact');
    await picker(page).waitFor();
    expect(await page.getByTestId('current-jurisdiction').textContent()).toBe('No jurisdiction chosen');
    await context.close();
  });

  it('shows no dialog at all to a veracode user agent', async () => {
    const { context, page } = await portal.newPage({
      userAgent: 'Mozilla/5.0 (X11; Linux) VeraCode-Scanner/2.1',
    });
    await page.goto('/topics/contact');
    await page.getByTestId('current-jurisdiction').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await dialog(page).count()).toBe(0);
    await context.close();
  });

  it('the header control reopens the picker on other pages and moves to the inline tiles on /', async () => {
    const { context, page } = await portal.newPage({ region: 'J5B' });
    // The header's control is in the server's HTML: a click before hydration would do nothing.
    await gotoHydrated(page, '/topics/contact');
    await page.getByRole('button', { name: /^Change jurisdiction/ }).click();
    await picker(page).waitFor();
    await page.keyboard.press('Escape'); // a chosen jurisdiction lets the picker close
    await expect.poll(() => picker(page).count()).toBe(0);
    await gotoHydrated(page, '/');
    await page.getByRole('button', { name: /^Change jurisdiction/ }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('J5 MAC Part A: IA, KS, MO, NE Providers');
    expect(await dialog(page).count()).toBe(0);
    await context.close();
  });

  it('completes both dialogs by keyboard alone; Accept sets amaApproved=true with the same remember rule', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/topics/contact');
    await picker(page).waitFor();
    // Tab to the "J5 MAC Part B" tile and choose it with Enter.
    for (
      let i = 0;
      i < 10 &&
      (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) !==
        'J5 MAC Part B: IA, KS, MO, NE Providers';
      i++
    )
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await licenseDialog(page).waitFor();
    const accept = page.getByRole('button', { name: 'Accept', exact: true });
    await accept.waitFor();
    await expect.poll(() => accept.isEnabled()).toBe(true);
    await expectNoAxeViolations(page, 'license dialog');
    await screenshot(page, 'license-dialog');
    const content = page.getByTestId('license-content');
    expect(await content.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('500px');
    expect(await content.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Accept'; i++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => licenseDialog(page).count()).toBe(0);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'amaApproved')).toMatchObject({
      value: 'true',
      expires: -1,
      sameSite: 'Lax',
    });
    await page.reload();
    await page.getByTestId('current-jurisdiction').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await dialog(page).count()).toBe(0);
    await context.close();
  });

  it('Do Not Accept goes to / and clears the acceptance', async () => {
    const { context, page } = await portal.newPage();
    await context.addCookies([{ name: 'region', value: 'J8A', url: portal.url }]);
    await page.goto('/topics/privacy');
    await licenseDialog(page).waitFor();
    await page.getByRole('button', { name: 'Do Not Accept' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect((await context.cookies()).find((c) => c.name === 'amaApproved')).toBeUndefined();
    await expect.poll(() => dialog(page).count()).toBe(0);
    // Leaving home again asks again.
    await page.goto('/topics/privacy');
    await licenseDialog(page).waitFor();
    await context.close();
  });

  it("says 'Unable to retrieve About Us information.' when the license cannot be fetched", async () => {
    const { context, page } = await portal.newPage({ allowConsoleErrors: [/status of 502/] });
    await context.addCookies([{ name: 'region', value: 'J8A', url: portal.url }]);
    await page.route('**/api/content/license*', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: '{"errorMessage":"Content_Unavailable"}' }),
    );
    await page.goto('/topics/privacy');
    await licenseDialog(page).waitFor();
    await page.getByText('Unable to retrieve About Us information.').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('alert').textContent()).toBe('Unable to retrieve About Us information.');
    await context.close();
  });

  for (const width of [375, 900]) {
    it(`lays the tiles out two per row at ${width} px`, async () => {
      const { context, page } = await portal.newPage({ viewport: { width, height: 900 } });
      await page.goto('/topics/contact');
      await picker(page).waitFor();
      await waitForSettled(page);
      const tops = await picker(page)
        .getByRole('listitem')
        .evaluateAll((items) => items.map((i) => Math.round(i.getBoundingClientRect().top)));
      expect(tops[0]).toBe(tops[1]);
      expect(tops[2]).toBe(tops[3]);
      expect(tops[2]).toBeGreaterThan(tops[0]!);
      await screenshot(page, `picker-${width}`);
      await context.close();
    });
  }
});
