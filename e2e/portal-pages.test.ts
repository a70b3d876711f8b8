import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { layoutShifts, recordLayoutShifts } from './support/layout-shifts';
import { freshTotp, loginWithTotp, submitPassword } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Every page server-rendered, steady and hydrated without a mismatch
 * (docs/decisions/0034-server-rendered-portal-pages.md), and the login page's layout (the form on the first screen,
 * each login step's heading focused). A portal of this file's own: its logins use a demo account's TOTP steps.
 */
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
const CLS_LIMIT = 0.02;
const TITLE = (name: string) => `<title>${name} | Medicare Provider Portal</title>`;

// Every route of web/src/app/router.tsx as a visitor opens it, with the title its server-rendered HTML must have.
const publicPages: [path: string, title: string, status: number][] = [
  ['/', 'Home', 200],
  ['/topics/rendering-examples', 'Reading this site: links, tables and notes', 200],
  ['/login', 'Log in', 200],
  ['/login?next=%2Faccount', 'Log in', 200],
  ['/register', 'Register as an administrator', 200],
  ['/verify-email', 'Verify your email', 200],
  ['/verify-email#token=not-a-real-token', 'Verify your email', 200],
  ['/confirm-email', 'Confirm your new email address', 200],
  ['/login-help/username', 'Forgot username', 200],
  ['/login-help/password', 'Forgot password', 200],
  ['/reset-password', 'Reset your password', 200],
  ['/reset-password#token=not-a-real-token', 'Reset your password', 200],
  ['/reactivate', 'Reactivate my account', 200],
  ['/find-admin', 'Find my administrator', 200],
  ['/no-such-page', 'Page not found', 404],
];
const personalPages: [path: string, title: string][] = [
  ['/account', 'My account'],
  ['/dde-access', 'Request DDE access'],
];

describe('every page server-rendered, steady and hydrated; the login form first', { timeout: 120_000 }, () => {
  const portal = portalSuite({
    env: { LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    // A made-up emailed token is refused (400/404); a not-found page answers 404: the browser logs both.
    pageDefaults: { allowConsoleErrors: [] },
  });

  /**
   * Opens the page, checks its HTML was rendered by the server, waits until it is hydrated and settled, and checks
   * the layout shift. Console errors — React reports a hydration mismatch there — fail the test when the screen is
   * left (support/browser.ts openPage).
   */
  async function expectSteadyServerPage(page: Page, path: string, title: string, status: number) {
    const response = await gotoHydrated(page, path);
    expect(response?.status(), path).toBe(status);
    const html = (await response?.text()) ?? '';
    expect(html, `${path} is server-rendered`).toContain('id="portal-server-state"');
    expect(html.match(/<title>[^<]*<\/title>/g), path).toEqual([TITLE(title)]);
    // Every part that hydrates on its own (web/src/lib/lazy-part.tsx) in place: no Suspense boundary left pending
    // (`<!--$?-->`) for an inline script to fill in, which the CSP would refuse.
    expect(html, `${path} has no boundary sent apart`).not.toContain('<!--$?-->');
    await waitForSettled(page);
    const { cls, shifts } = await layoutShifts(page);
    expect(cls, `layout shift on ${path}: ${shifts.join('; ')}`).toBeLessThanOrEqual(CLS_LIMIT);
    return html;
  }

  for (const [path, title, status] of publicPages) {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      it(`${path} at ${viewport.width} px: in the first HTML, CLS ≤ ${CLS_LIMIT}, no console error`, async () => {
        const tokenPage = path.includes('#token=');
        const { context, page } = await portal.newPage({
          viewport,
          allowConsoleErrors: status === 404 ? [/status of 404/] : tokenPage ? [/status of 4\d\d/] : [],
        });
        await recordLayoutShifts(context);
        await expectSteadyServerPage(page, path, title, status);
        await context.close();
      });
    }
  }

  it('/login has the system-use notice and the login form in its first HTML', async () => {
    const html = await (await fetch(`${portal.url}/login`, { headers: { cookie: 'region=J5A' } })).text();
    expect(html).toContain('Government-authorized use only');
    // The form hydrates after the page (its code loads beside hydration): its server markup is what shows meanwhile.
    expect(html).toContain('id="login-username"');
    expect(html).toContain('id="login-password"');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Log in</);
  });

  it('a page for logged-in users redirects a visitor without a session to the login page, by HTTP', async () => {
    for (const [path] of personalPages) {
      const answer = await fetch(`${portal.url}${path}?x=1`, { redirect: 'manual' });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe(`/login?next=${encodeURIComponent(`${path}?x=1`)}`);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }
    // An ended session's cookie is no session either.
    const ended = await fetch(`${portal.url}/account`, {
      redirect: 'manual',
      headers: { cookie: 'portal_session=ended-session-id' },
    });
    expect(ended.status).toBe(302);
  });

  it('a logged-in user gets their page rendered for them, private and not stored, and hydrated without a shift', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await recordLayoutShifts(context);
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    for (const [path, title] of personalPages) {
      const html = await expectSteadyServerPage(page, path, title, 200);
      // Logged in from the first byte: the header's account control, not Log in.
      expect(html).toContain('Log out');
      expect(html).not.toContain('data-testid="account-control-pending"');
      const answer = await fetch(`${portal.url}${path}`, { headers: { cookie } });
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(answer.headers.get('etag')).toBeNull();
      // The next visitor without that session is sent to log in: nothing of the page was kept for them.
      expect((await fetch(`${portal.url}${path}`, { redirect: 'manual' })).status).toBe(302);
    }
    await context.close();
  });

  // Issue 21: CI saw /account's sections move by 0.0445 after the first paint. Their reserved boxes were not the
  // height of what replaced them, and a section whose code came late showed a fallback of yet another height.
  it("/account's first screen is drawn by the server as it stays once hydrated, even when the sections' code is late", async () => {
    const login = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(login.page, ADMIN, ADMIN_SECRET);
    const storageState = await login.context.storageState();
    await login.context.close();
    // The frames of the sections that start on the first screen.
    const firstScreenSections = (page: Page) =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('main section'))
          .map((section) => ({ id: section.getAttribute('data-testid'), ...section.getBoundingClientRect().toJSON() }))
          .filter((frame) => frame.top < innerHeight)
          .map(({ id, top, height }) => ({ id, top: Math.round(top), height: Math.round(height) })),
      );
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      const { context, page } = await portal.newPage({ viewport, storageState });
      await recordLayoutShifts(context);
      // No script runs until the page as the server drew it (what the first paint shows) has been measured; then
      // every section's chunk comes late, as on a loaded machine or a slow network.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const late = { asked: 0, given: 0 };
      await page.route(/\/assets\/.*\.js$/, async (route) => {
        await held;
        if (!/section-[\w-]+\.js$/.test(route.request().url())) return route.continue();
        late.asked++;
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
        late.given++;
      });
      const hydrated = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/session');
      await page.goto('/account', { waitUntil: 'commit' });
      await page.locator('main section').last().waitFor();
      await page.evaluate(() => document.fonts.ready);
      const drawn = await firstScreenSections(page);
      expect(drawn.map((frame) => frame.id)).toContain('profile-section');
      release();
      await hydrated;
      // Compared once every section's code is there and the page has settled with it.
      await expect.poll(() => late.asked > 0 && late.given === late.asked, { timeout: 30_000 }).toBe(true);
      // A section's chunk asks for the chunks it imports only once it has come.
      await page.waitForLoadState('networkidle');
      await waitForSettled(page);
      expect(await firstScreenSections(page), `/account at ${viewport.width} px`).toEqual(drawn);
      const { cls, shifts } = await layoutShifts(page);
      expect(cls, `layout shift on /account at ${viewport.width} px: ${shifts.join('; ')}`).toBeLessThanOrEqual(
        CLS_LIMIT,
      );
      await context.close();
    }
  });

  it('a visitor sent to /account by the server logs in and comes back to it', async () => {
    const { page, context } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    const response = await gotoHydrated(page, '/account');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(response?.request().redirectedFrom()?.url()).toContain('/account');
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    await page
      .getByRole('textbox', { name: /verification code or recovery code/i })
      .fill(await freshTotp(ADMIN_SECRET));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/account');
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    await context.close();
  });

  // The login page: the form on the first screen, each step announced (issue 22, item 7).
  for (const [viewport, name] of [
    [{ width: 1440, height: 900 }, '1440'],
    [{ width: 390, height: 844 }, '390'],
  ] as const) {
    it(`at ${name} px the Log in button is on the first screen, under the notice shown short`, async () => {
      const { context, page } = await portal.newPage({ viewport });
      await gotoHydrated(page, '/login');
      await waitForSettled(page);
      const button = await page.getByRole('button', { name: 'Log in', exact: true }).boundingBox();
      expect(button).not.toBeNull();
      expect(button!.y + button!.height).toBeLessThanOrEqual(viewport.height);
      // The notice stays above the form, short, with its full text one click away.
      const notice = page.getByTestId('system-use-notice');
      const form = (await page.getByRole('form', { name: 'Log in' }).boundingBox())!;
      const short = (await notice.boundingBox())!;
      expect(short.y + short.height).toBeLessThanOrEqual(form.y);
      await screenshot(page, `login-${name}`);
      const more = notice.getByRole('button', { name: 'Read the full notice' });
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      await more.click();
      await expect.poll(async () => (await notice.boundingBox())!.height).toBeGreaterThan(short.height + 50);
      expect(await notice.innerText()).toContain('Government-authorized use only');
      await notice.getByRole('button', { name: 'Show less of the notice' }).waitFor();
      await expectNoAxeViolations(page, `login at ${name} px`);
      await context.close();
    });
  }

  it('the second factor step takes the focus to its heading', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 390, height: 844 } });
    await gotoHydrated(page, '/login');
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    const heading = page.getByRole('heading', { name: 'Enter your verification code' });
    await heading.waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Enter your verification code');
    const box = (await heading.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await context.close();
  });
});
