import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { loginWithTotp } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Keyboard focus and the header on a phone (docs/requirements/public-site.md#every-page): every control shows a focus
 * indicator of at least 3:1 against what surrounds it — measured here control by control, in the dark header and
 * footer too —, focus lands on something meaningful after the license is accepted and after "Find my provider
 * location", and every destination of the desktop header is reachable at 390 px, Help included when logged in.
 */
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
const allowConsoleErrors = [/status of 40[0-9]/];
const DEMO_LOCATION = { npi: '1029158577', ptan: 'BWI0000063', tin: '80-4108675' };

interface FocusRing {
  name: string;
  surface: 'header' | 'footer' | 'page';
  ring: string;
  background: string;
  width: number;
  contrast: number;
}

/**
 * The focused element's indicator: its outline (or, for an outlined text field, its border), its colour and width, the
 * colour behind it (the nearest opaque background around the element) and their contrast ratio (WCAG 2.2 relative
 * luminance).
 */
function focusRing(page: Page): Promise<FocusRing | undefined> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return undefined;
    const parse = (c: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (c.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a: c.startsWith('rgba') ? a : 1 };
    };
    const behind = (node: Element | null): string => {
      for (let n = node; n; n = n.parentElement) {
        const c = getComputedStyle(n).backgroundColor;
        if (parse(c).a > 0.5) return c;
      }
      return 'rgb(255, 255, 255)';
    };
    const luminance = (c: string) => {
      const { r, g, b } = parse(c);
      const [R, G, B] = [r, g, b].map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
    };
    const style = getComputedStyle(el);
    let ring = style.outlineColor;
    let width = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth);
    let around: Element | null = el.parentElement;
    const field = el.closest('.MuiOutlinedInput-root');
    if (width === 0 && field) {
      const border = getComputedStyle(field.querySelector('fieldset')!);
      ring = border.borderTopColor;
      width = parseFloat(border.borderTopWidth);
      around = field.parentElement;
    }
    const background = behind(around);
    const [hi, lo] = [luminance(ring), luminance(background)].sort((a, b) => b - a);
    return {
      name: `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`,
      surface: el.closest('header') ? 'header' : el.closest('footer') ? 'footer' : 'page',
      ring,
      background,
      width,
      contrast: Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100,
    } as const;
  });
}

/** Tabs through the whole page from its top, measuring the focus indicator of every control it reaches, once round. */
async function tabThroughPage(page: Page): Promise<FocusRing[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const rings: FocusRing[] = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const ring = await focusRing(page);
    if (!ring) continue;
    // Back at the first control: the whole page was seen.
    if (rings.length > 1 && ring.name === rings[0]!.name && ring.surface === rings[0]!.surface) break;
    rings.push(ring);
  }
  return rings;
}

function expectVisibleRings(rings: FocusRing[], where: string) {
  expect(rings.length, where).toBeGreaterThan(3);
  const weak = rings.filter((r) => r.width < 2 || r.contrast < 3);
  expect(weak, `${where}: focus indicators under 2 px or 3:1`).toEqual([]);
}

describe('keyboard focus and the phone header', () => {
  const portal = portalSuite({
    env: { LOGIN_ATTEMPTS_PER_MINUTE: '200', SEED_LOCATIONS: '250' },
    pageDefaults: { allowConsoleErrors },
  });

  it('every control of the login page, header and footer included, shows a focus indicator of at least 3:1', async () => {
    for (const width of [390, 1440]) {
      const { context, page } = await portal.newPage({ viewport: { width, height: 900 } });
      await gotoHydrated(page, '/login');
      await waitForSettled(page);
      const rings = await tabThroughPage(page);
      expect(rings.some((r) => r.surface === 'header')).toBe(true);
      expect(rings.some((r) => r.surface === 'footer')).toBe(true);
      expectVisibleRings(rings, `/login at ${width} px`);
      // The header's Help, focused, as a person sees it.
      await page.getByRole('button', { name: 'Help' }).focus();
      await screenshot(page, `focus-header-help-${width}`);
      await context.close();
    }
  });

  it('logged in, the header (Help included) and the portal home show focus at least 3:1', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await gotoHydrated(page, '/portal');
    await waitForSettled(page);
    const rings = await tabThroughPage(page);
    expect(rings.filter((r) => r.surface === 'header').map((r) => r.name)).toEqual(
      expect.arrayContaining([expect.stringContaining('Help')]),
    );
    expectVisibleRings(rings, '/portal logged in');
    await context.close();
  });

  it('after the license is accepted by keyboard, focus is on the page heading', async () => {
    const { context, page } = await portal.newPage({ region: false });
    await context.addCookies([{ name: 'region', value: 'J8A', url: portal.url }]);
    await page.goto('/topics/contact');
    const dialog = page.getByRole('dialog', { name: 'License agreement' });
    await dialog.waitFor();
    const accept = dialog.getByRole('button', { name: 'Accept', exact: true });
    await expect.poll(() => accept.isEnabled()).toBe(true);
    await accept.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`))
      .toBe('H1 Contact us');
    await context.close();
  });

  it('after "Find my provider location", focus is on the location found', async () => {
    const { context, page } = await portal.newPage({ region: 'J5B' });
    await gotoHydrated(page, '/register');
    await page.getByRole('textbox', { name: /NPI/ }).fill(DEMO_LOCATION.npi);
    await page.getByRole('textbox', { name: /PTAN/ }).fill(DEMO_LOCATION.ptan);
    await page.getByRole('textbox', { name: /TIN/ }).fill(DEMO_LOCATION.tin);
    await page.getByRole('button', { name: 'Find my provider location' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'This is my location, continue' }).waitFor();
    // The element that has the focus, not the page's body (whose text holds everything).
    await expect
      .poll(() =>
        page.evaluate(() =>
          document.activeElement === document.body ? 'BODY' : (document.activeElement?.textContent ?? '').trim(),
        ),
      )
      .toBe('We found this provider location. Check that it is yours.');
    await context.close();
  });

  it('at 390 px every destination of the desktop header is on screen, Help included when logged in', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    const header = page.locator('header');
    const destinations = async () =>
      (await header.locator('a, button').evaluateAll((els) =>
        els
          .filter((el) => {
            const box = el.getBoundingClientRect();
            return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
          })
          .map((el) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim()),
      )) as string[];
    await gotoHydrated(page, '/portal');
    await waitForSettled(page);
    const desktop = await destinations();
    expect(desktop).toEqual(
      expect.arrayContaining(['Portal home', 'DDE access', 'My account', 'Staff accounts', 'Help']),
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    const phone = await destinations();
    for (const name of desktop) expect(phone, `${name} at 390 px`).toContain(name);
    // All of them within the screen's width: nothing to scroll sideways for.
    const overflow = await header
      .locator('a, button')
      .evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).length);
    expect(overflow).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, 'header at 390 px, logged in');
    await screenshot(page, 'header-logged-in-390');
    // Help, logged in: contact and find my administrator.
    await header.getByRole('button', { name: 'Help' }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Contact us' }).waitFor();
    await menu.getByRole('menuitem', { name: 'Find my administrator' }).waitFor();
    await expectNoAxeViolations(page, 'help menu at 390 px, logged in');
    await screenshot(page, 'header-help-menu-390');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 900 });
    await waitForSettled(page);
    await screenshot(page, 'header-logged-in-1440');
    await context.close();
  });
});
