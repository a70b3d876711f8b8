import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { screenshot, waitForSettled } from './support/browser';
import { loginWithTotp } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Issue 22, item 10 ("copy and details") in the browser: the points a unit test cannot see. The others have unit
 * or server tests beside their code (error box, checklist, session count, verification page, email wording,
 * activity names, DDE preselection).
 */
const ADMIN_SECRET = DEMO_TOTP_SECRETS['demo.admin.j5']!;
const allowConsoleErrors = [/status of 4\d\d/];

/** The top edge of each of the header's account items, rounded: items on one row share it. */
const tops = (page: Page, names: string[]) =>
  Promise.all(
    names.map(async (name) =>
      Math.round((await page.getByTestId('account-slot').getByText(name, { exact: true }).first().boundingBox())!.y),
    ),
  );

describe('copy and details', () => {
  const portal = portalSuite({
    env: { LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    pageDefaults: { allowConsoleErrors },
  });

  it('form pages open without the "No HydrateFallback element" warning; on a phone the header links keep to one row', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 390, height: 844 } });
    const warnings: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(msg.text());
    });
    for (const path of ['/login', '/login-help/password', '/find-admin', '/register', '/reactivate']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await waitForSettled(page);
    }
    expect(warnings.filter((w) => /HydrateFallback/.test(w))).toEqual([]);

    // The account links sit together on one row under the jurisdiction, not split across rows.
    const [help, register, logIn] = await tops(page, ['Help', 'Register', 'Log in']);
    expect(Math.abs(help! - register!)).toBeLessThanOrEqual(8);
    expect(Math.abs(register! - logIn!)).toBeLessThanOrEqual(8);
    const jurisdiction = (await page.getByTestId('jurisdiction-slot').boundingBox())!;
    expect(help!).toBeGreaterThanOrEqual(Math.round(jurisdiction.y + jurisdiction.height) - 8);
    await screenshot(page, 'header-logged-out-390');
    await context.close();
  });

  it('DDE access: comments count down to the limit; the answer says what happens next', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, 'demo.admin.j5', ADMIN_SECRET);
    await page.goto('/dde-access');
    await expect.poll(() => page.getByRole('radio').first().isChecked()).toBe(true);
    await page.getByTestId('dde-enrollment').waitFor();
    await waitForSettled(page);
    const counter = page.getByTestId('dde-comments-counter');
    expect(await counter.innerText()).toBe('500 characters left (up to 500)');
    await page.getByRole('textbox', { name: /comments/i }).fill('Our biller starts on Monday.');
    await expect.poll(() => counter.innerText()).toBe('472 characters left (up to 500)');
    if (
      !(await page
        .getByRole('radio', { name: /DDE access$/ })
        .and(page.locator(':checked'))
        .count())
    )
      await page.getByRole('radio', { name: 'New DDE access' }).check();
    const submitterId = page.getByRole('textbox', { name: /submitter id/i });
    if (!(await submitterId.inputValue())) {
      await page.getByRole('combobox', { name: /dde access type/i }).selectOption('inquiry');
      await submitterId.fill('DEMO12345');
      await page.getByRole('textbox', { name: /network service vendor/i }).fill('Demo Network');
    }
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByRole('heading', { name: 'Request sent' }).waitFor();
    await page.getByRole('heading', { name: 'What happens next' }).waitFor();
    expect(await page.getByTestId('dde-next-steps').innerText()).toMatch(/We email you when access is granted/);

    // Logged in on a phone, every destination of the desktop header is there and inside the screen (issue 38 item 12:
    // the account controls may take a second row rather than hide one).
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    const slot = (await page.getByTestId('account-slot').boundingBox())!;
    expect(slot.x + slot.width).toBeLessThanOrEqual(390);
    const nav = page.getByRole('navigation', { name: 'Portal' });
    for (const name of ['Portal home', 'DDE access', 'My account', 'Staff accounts'])
      expect(await nav.getByRole('link', { name }).isVisible(), name).toBe(true);
    expect(await page.getByRole('button', { name: 'Help' }).isVisible()).toBe(true);
    await screenshot(page, 'header-logged-in-390');
    await context.close();
  });
});
