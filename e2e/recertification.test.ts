import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, screenshot, waitForSettled } from './support/browser';
import { loginEnrolling, loginWithTotp, logOut } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Annual recertification (docs/requirements/staff-accounts.md#annual-recertification) on the demo data (README: Demo
 * accounts): `demo.admin.j5` sees `demo.user.due` due in 10 days in the console; `demo.admin.recert`, whose
 * `demo.user.overdue` is overdue, is held on `/admin/recertify` after login and on every portal page until they keep
 * or remove it, keyboard only. The suspension itself (the job, on the app's clock) is tested in
 * server/test/recertification-jobs.test.ts.
 */
describe('annual recertification', () => {
  const suite = portalSuite();

  /** Presses Tab until `target` has the focus (keyboard only: no click reaches it). */
  async function tabTo(page: Page, target: Locator, limit = 80) {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      if (await target.evaluate((el) => el === document.activeElement)) return;
    }
    throw new Error(`Tab never reached ${String(target)}`);
  }

  it('the console shows what is due in the next 45 days', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, 'demo.admin.j5', DEMO_TOTP_SECRETS['demo.admin.j5']!);
    await page.goto('/admin');
    const section = page.getByRole('region', { name: 'Recertification' });
    const row = section.getByRole('row', { name: /demo\.user\.due/ });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/in 10 days/);
    await waitForSettled(page);
    await expectNoAxeViolations(page, 'console with a recertification due');
    // Not overdue: the portal home opens as usual.
    await page.goto('/portal');
    await page.waitForURL('**/portal');
    await logOut(page);
  });

  it('an administrator with an overdue recertification is held on /admin/recertify until it is done, keyboard only', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await loginEnrolling(page, 'demo.admin.recert');
    await page.waitForURL('**/admin/recertify');
    await page.getByRole('heading', { level: 1, name: 'Recertify access to your locations' }).waitFor();
    const row = page.getByRole('row', { name: /demo\.user\.overdue/ });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Overdue since/);
    await waitForSettled(page);
    await expectNoAxeViolations(page, 'recertify at 1440 px');
    await screenshot(page, 'recertify-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 'recertify at 390 px');
    await screenshot(page, 'recertify-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Every portal page leads back here while it is not done.
    for (const path of ['/portal', '/account', '/admin']) {
      await page.goto(path);
      await page.waitForURL('**/admin/recertify');
    }
    await page.getByRole('heading', { level: 1, name: 'Recertify access to your locations' }).waitFor();
    await waitForSettled(page);

    // Keyboard only: Keep on the row, then Submit.
    await tabTo(page, page.getByRole('radio', { name: 'Keep' }).first());
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: 'Submit decisions' }), 10);
    await page.keyboard.press('Enter');
    await page
      .getByTestId('recertification-status')
      .getByText(/1 kept for another year/)
      .waitFor();

    await page.goto('/portal');
    await page.waitForURL('**/portal');
    await logOut(page);
  });
});
