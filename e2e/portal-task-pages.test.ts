import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { loginWithTotp } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Portal task pages are for getting a task done (docs/requirements/public-site.md#dialog-flow): a first-time visitor
 * meets no jurisdiction picker or license dialog on them, only on content pages; and a login never returns to a page
 * that needs an emailed one-time link the browser no longer has (docs/requirements/session.md#login).
 */
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
// A made-up emailed token is refused (4xx), which Chromium reports as a console error.
const allowConsoleErrors = [/status of 4\d\d/];

/** Every portal page a visitor without a session opens (web/src/app/router.tsx). */
const visitorPages = [
  '/login',
  '/login?next=%2Faccount',
  '/register',
  '/register/user',
  '/verify-email',
  '/verify-email#token=not-a-real-token',
  '/confirm-email',
  '/login-help/username',
  '/login-help/password',
  '/reset-password',
  '/reset-password#token=not-a-real-token',
  '/reactivate',
  '/find-admin',
  '/invitation',
  '/invitation#token=not-a-real-token',
  '/logged-out',
  '/no-such-page',
];
/** The pages for logged-in people. */
const personalPages = ['/portal', '/account', '/dde-access', '/admin', '/admin/recertify'];
/** Pages that consume an emailed one-time link (its token in the fragment). */
const oneTimeLinkPages = ['/verify-email', '/reset-password', '/invitation', '/reactivate', '/confirm-email'];

const dialogs = (page: Page) => page.getByRole('dialog');

async function expectNoDialog(page: Page, path: string) {
  // A fresh document each time (a path that differs only by its fragment would not load the page again); leaving the
  // page checks it (axe, console errors).
  await page.goto('about:blank');
  await gotoHydrated(page, path);
  await waitForSettled(page);
  await page.waitForLoadState('networkidle');
  expect(await dialogs(page).count(), `a dialog on ${path}`).toBe(0);
  // Nothing hides the page from a screen reader or takes the keyboard.
  expect(await page.locator('#root').getAttribute('aria-hidden'), path).toBeNull();
}

describe('portal task pages', () => {
  const portal = portalSuite({
    env: { LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    pageDefaults: { region: false, allowConsoleErrors },
  });

  it('a first-time visitor sees no dialog on any portal page', { timeout: 180_000 }, async () => {
    for (const width of [390, 1440]) {
      const { context, page } = await portal.newPage({ viewport: { width, height: 900 } });
      for (const path of visitorPages) await expectNoDialog(page, path);
      await gotoHydrated(page, '/login');
      await waitForSettled(page);
      await screenshot(page, `login-first-visit-${width}`);
      await context.close();
    }
  });

  it('logged in without a chosen jurisdiction, no portal page opens a dialog', { timeout: 180_000 }, async () => {
    const { context, page } = await portal.newPage();
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    for (const path of [...personalPages, ...visitorPages.filter((p) => !p.startsWith('/login'))])
      await expectNoDialog(page, path);
    await context.close();
  });

  it('a topic page still asks for the jurisdiction, then the license, in that order', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/topics/contact');
    const picker = page.getByRole('dialog', { name: 'Get the right info.' });
    await picker.waitFor();
    expect(await page.getByRole('dialog', { name: 'License agreement' }).count()).toBe(0);
    await picker.getByRole('button', { name: /^J8 MAC Part B:/ }).click();
    await page.getByRole('dialog', { name: 'License agreement' }).waitFor();
    expect(await picker.count()).toBe(0);
    await context.close();
  });

  it('the header control still opens the picker on a portal page, and it can be closed', async () => {
    const { context, page } = await portal.newPage();
    await gotoHydrated(page, '/login');
    await page.getByRole('button', { name: /^Choose jurisdiction|^Change jurisdiction/ }).click();
    const picker = page.getByRole('dialog', { name: 'Get the right info.' });
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => picker.count()).toBe(0);
    await picker.waitFor({ state: 'detached' });
    // Choosing one on a portal page sets it, and no license dialog follows there.
    await page.getByRole('button', { name: /^Choose jurisdiction|^Change jurisdiction/ }).click();
    await picker.getByRole('button', { name: /^J5 MAC Part A:/ }).click();
    await expect.poll(() => picker.count()).toBe(0);
    await waitForSettled(page);
    expect(await dialogs(page).count()).toBe(0);
    await context.close();
  });

  it('a login never returns to a page that needs an emailed one-time link: it lands on the portal home', async () => {
    const { context, page } = await portal.newPage({ region: 'J5A' });
    // As in the report: the header's Log in on /verify-email's page, then the login.
    await gotoHydrated(page, '/verify-email');
    const logIn = page.getByRole('link', { name: 'Log in', exact: true }).first();
    await logIn.click();
    await page.waitForURL('**/login**');
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/portal');
    // Logged in, `/login?next=…` goes to `next` at once: every one-time-link page ends on the portal home.
    for (const path of oneTimeLinkPages) {
      await gotoHydrated(page, `/login?next=${encodeURIComponent(path)}`);
      await expect.poll(() => new URL(page.url()).pathname, { message: path }).toBe('/portal');
    }
    // Any other page is still where the login returns.
    await gotoHydrated(page, `/login?next=${encodeURIComponent('/account')}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/account');
    await context.close();
  });
});
