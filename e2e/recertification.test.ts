import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { testClock } from './support/clock';
import { demoLocation } from './support/demo';
import { loginEnrolling, loginWithTotp, logOut } from './support/login';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';

/**
 * Annual recertification (docs/requirements/staff-accounts.md#annual-recertification) on the demo data (README: Demo
 * accounts): `demo.admin.j5` sees `demo.user.due` due in 10 days in the console; `demo.admin.recert`, whose
 * `demo.user.overdue` is overdue, is held on `/admin/recertify` after login and on every portal page until they keep
 * or remove it, keyboard only. On a portal of its own whose clock the test moves (TEST_CLOCK_FILE, every job every two
 * seconds: docs/decisions/0043), `demo.user.due`'s date passes: the reminder reached the administrator before it, and
 * after it the link is suspended, the person emailed and without the location. The job's rules in detail are in
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
    await gotoHydrated(page, '/portal');
    await page.waitForURL('**/portal');
    await logOut(page);
  });

  it('Submit with nothing chosen says so next to the button, in view (390 px, axe)', async () => {
    const { page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await loginWithTotp(page, 'demo.admin.j5', DEMO_TOTP_SECRETS['demo.admin.j5']!);
    await gotoHydrated(page, '/admin');
    const section = page.getByRole('region', { name: 'Recertification' });
    await section.getByRole('row', { name: /demo\.user\.due/ }).waitFor();
    await waitForSettled(page);
    const submit = section.getByRole('button', { name: 'Submit decisions' });
    await submit.click();
    const problem = section.getByRole('alert').filter({ hasText: 'Choose Keep or Remove for at least one person.' });
    await problem.waitFor();
    // Next to the control: right below the button, and on screen.
    const [alertBox, buttonBox] = [(await problem.boundingBox())!, (await submit.boundingBox())!];
    expect(alertBox.y).toBeGreaterThanOrEqual(buttonBox.y + buttonBox.height);
    expect(alertBox.y - (buttonBox.y + buttonBox.height)).toBeLessThan(40);
    expect(await problem.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
    await expectNoAxeViolations(page, 'recertification refusal at 390 px');
    await screenshot(page, 'recertification-refusal-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await problem.scrollIntoViewIfNeeded();
    await screenshot(page, 'recertification-refusal-1440');
    await logOut(page);
  });

  it('an administrator with an overdue recertification is held on /admin/recertify until it is done, keyboard only', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await loginEnrolling(page, 'demo.admin.recert');
    await page.waitForURL(/\/admin\/recertify(\?.*)?$/);
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
      await gotoHydrated(page, path);
      await page.waitForURL(/\/admin\/recertify(\?.*)?$/);
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

    await gotoHydrated(page, '/portal');
    await page.waitForURL('**/portal');
    await logOut(page);
  });
});

describe('suspension after the date, the clock moved', () => {
  const DAY_MS = 86_400_000;
  const SEED_LOCATIONS = 30;
  // demo.user.due is a user of demo.admin.j5's location, certified for 10 more days (the demo seed).
  const location = demoLocation(SEED_LOCATIONS, 'J5');
  const startedAt = new Date(Date.now() - 1000);
  const clock = testClock();
  const suite = portalSuite({
    env: {
      MAIL_VIEWER: 'true',
      SEED_LOCATIONS: String(SEED_LOCATIONS),
      TEST_CLOCK_FILE: clock.path,
      TEST_JOB_INTERVAL_MS: '2000',
    },
    pageDefaults: { viewport: { width: 1440, height: 900 } },
  });

  it('the administrator is reminded before the date; after it the person is emailed and no longer has the location', async () => {
    // Before the date: the reminder job (its first run two seconds after start) emailed the location's administrator.
    const reminder = await readEmail(suite.url, {
      to: 'demo.admin.j5@example.com',
      subject: /Recertification due for people of your locations/,
      since: startedAt,
    });
    expect(reminder).toContain(`Dale Due, ${location.legalName} (NPI ${location.npi}): due in 10 days.`);

    // The person can use the location now (DDE access offers it).
    const { page } = await suite.newPage();
    const key = await loginEnrolling(page, 'demo.user.due');
    await gotoHydrated(page, '/dde-access');
    await page.getByRole('radio', { name: new RegExp(`NPI ${location.npi}`) }).waitFor();
    await logOut(page);

    // Eleven days later (one past the date), the suspension job runs and emails the person.
    const movedAt = new Date();
    clock.move(11 * DAY_MS);
    const notice = await readEmail(suite.url, {
      to: 'demo.user.due@example.com',
      subject: /Your access to a provider location was suspended/,
      since: movedAt,
    });
    expect(notice).toContain(location.legalName);

    // Logging in (at the moved time: the server checks the code at its own), the location no longer grants access.
    await loginWithTotp(page, 'demo.user.due', key, DEMO_PASSWORD, clock.offsetMs);
    await page.goto('/dde-access');
    await page.getByText('Your account is not linked to a provider location yet.').waitFor();
    await expectNoAxeViolations(page, 'DDE access after the suspension');
    await screenshot(page, 'recertification-suspended-dde-1440');
    // Nor does My account list it.
    await page.goto('/account');
    await page
      .getByRole('region', { name: 'Provider locations and roles' })
      .getByText('No provider locations are linked to your account yet.')
      .waitFor();
    await logOut(page);
  }, 240_000);
});
