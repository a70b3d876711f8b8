import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_SECURITY_ANSWER, DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { demoLocation } from './support/demo';
import { readEmail } from './support/mail';
import { freshTotp, submitPassword, typeDate } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Login help, find my administrator and DDE access (docs/requirements/portal.md#login-help) end to end against a
 * portal of this file's own (its demo accounts' passwords change here), reading the emails from the mail viewer.
 * Every screen the tests leave is checked by axe (openPage).
 */
const DEMO_DOB_DIGITS = '01011980'; // the demo accounts' date of birth, typed as MM/DD/YYYY
const DEMO_ADMIN_SECRET = DEMO_TOTP_SECRETS['demo.admin.j5']!;
const SEED_LOCATIONS = 30;
// Answers like 400/403/404 are part of these flows; Chromium reports each as a console error of the page.
const allowConsoleErrors = [/status of 4\d\d/];

/** The first demo location of J5 (by NPI, then PTAN), where demo.admin.j5 is the administrator. */
const firstJ5Location = () => demoLocation(SEED_LOCATIONS);

/** The password was accepted: the second factor (or its first set-up) is asked for. */
async function expectMfaStep(page: Page) {
  await page
    .getByRole('textbox', { name: /verification code or recovery code/i })
    .or(page.getByRole('img', { name: /qr code/i }))
    .waitFor();
}

async function expectFocusedHeading(page: Page, name: string) {
  const heading = page.getByRole('heading', { name });
  await heading.waitFor();
  await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
}

describe('login help and DDE access', () => {
  const portal = portalSuite({
    env: { MAIL_VIEWER: 'true', SEED_LOCATIONS: String(SEED_LOCATIONS), LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    pageDefaults: { allowConsoleErrors, viewport: { width: 1440, height: 900 } },
  });

  it('forgot username: from the login page; no or a future date of birth, no request; the username arrives by email', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot username?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot username' }).waitFor();
    await page.getByRole('textbox', { name: /email address/i }).fill('demo.user.j8@example.com');

    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/login-help/')) sent.push(r.url());
    });
    await page.getByRole('button', { name: 'Email my username' }).click();
    await page.getByTestId('form-error-summary').getByRole('link', { name: 'Date of Birth is invalid' }).waitFor();
    expect(sent).toEqual([]);

    // A date of birth in the future is refused next to the field, and nothing is sent (issue 22 #6).
    const future = 'Date of birth cannot be in the future. Enter the date you were born.';
    await typeDate(page, /date of birth/i, '01012035');
    await page.getByRole('button', { name: 'Email my username' }).click();
    await expect.poll(() => page.locator('#forgot-username-dob-helper-text').textContent()).toBe(future);
    await page.getByTestId('form-error-summary').getByRole('link', { name: future }).waitFor();
    expect(sent).toEqual([]);

    const since = new Date();
    await typeDate(page, /date of birth/i, DEMO_DOB_DIGITS);
    await page.getByRole('button', { name: 'Email my username' }).click();
    await expectFocusedHeading(page, 'Check your email');
    const email = await readEmail(portal.url, { to: 'demo.user.j8@example.com', subject: /Your username$/, since });
    expect(email).toContain('Your username is: demo.user.j8');
    await context.close();
  });

  it('on a touch screen the date of birth field the server sent is the one that hydrates, and takes a date', async () => {
    const { context, page } = await portal.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    // Counts the date fields taken out of the page (a re-mount after hydration loses what the user typed or focused).
    await page.addInitScript(() => {
      const w = window as unknown as { __dateFieldsRemoved: number };
      w.__dateFieldsRemoved = 0;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of Array.from(record.removedNodes))
            if (node instanceof Element && node.querySelector('[role="spinbutton"][aria-label="Month"]'))
              w.__dateFieldsRemoved += 1;
      }).observe(document, { childList: true, subtree: true });
    });
    await gotoHydrated(page, '/login-help/username');
    const field = page.getByRole('group', { name: /date of birth/i });
    await expect
      .poll(() => field.getByRole('spinbutton', { name: 'Month' }).getAttribute('aria-readonly'))
      .toBe('false');
    await waitForSettled(page);
    expect(await page.evaluate(() => (window as unknown as { __dateFieldsRemoved: number }).__dateFieldsRemoved)).toBe(
      0,
    );

    await typeDate(page, /date of birth/i, '02031985');
    await expect.poll(() => page.locator('input[name="dob"]').inputValue()).toBe('02/03/1985');
    await page.getByRole('button', { name: 'Choose date' }).click();
    await page.getByRole('gridcell', { name: '3', selected: true }).waitFor();
    await context.close();
  });

  it('forgot password: emailed link → security question → new password → the login reaches MFA; the link works once', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
    await page.getByRole('textbox', { name: 'Username' }).fill('demo.user.j8');
    await page.getByRole('textbox', { name: /email address/i }).fill('demo.user.j8@example.com');
    const since = new Date();
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expectFocusedHeading(page, 'Check your email');

    const email = await readEmail(portal.url, {
      to: 'demo.user.j8@example.com',
      subject: /Reset your password$/,
      since,
    });
    const link = /https?:\/\/\S+\/reset-password#token=\S+/.exec(email)?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByRole('textbox', { name: /your answer/i }).waitFor();
    // The token leaves the address bar at once.
    await expect.poll(() => page.url()).toBe(`${portal.url}/reset-password`);
    await expect.poll(() => page.locator('#reset-question').innerText()).toMatch(/\?$/);
    await waitForSettled(page);

    const newPassword = 'copper kettle winter orchard';
    await page.getByRole('textbox', { name: /your answer/i }).fill(DEMO_SECURITY_ANSWER);
    await page.getByLabel(/^new password/i).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectFocusedHeading(page, 'Your password has been changed');
    await page.getByText(/still need your authenticator app/).waitFor();

    // The same link opened again (a fresh page load, as from the email): it no longer works, and says how to get
    // a new one.
    await page.goto('/login');
    await page.goto(link!);
    await page.getByRole('heading', { name: 'This reset link no longer works' }).waitFor();
    await page.getByRole('link', { name: 'Request a new password reset email' }).waitFor();

    await page.goto('/login');
    await submitPassword(page, 'demo.user.j8', DEMO_PASSWORD);
    await page
      .getByTestId('form-error-summary')
      .getByText(/username or password is not correct/)
      .waitFor();
    await submitPassword(page, 'demo.user.j8', newPassword);
    await expectMfaStep(page);
    await context.close();
  });

  it('forgot password as an internal user: the enterprise-directory instructions, no email', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/login-help/password');
    await page.getByRole('textbox', { name: 'Username' }).fill('demo.internal');
    await page.getByRole('textbox', { name: /email address/i }).fill('demo.internal@example.com');
    await page.getByRole('checkbox', { name: /internal user/i }).check();
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expectFocusedHeading(page, 'Reset your password through the enterprise directory');
    expect(await (await fetch(`${portal.url}/dev/mail`)).text()).not.toContain('to demo.internal@example.com');
    await context.close();
  });

  it('reactivation: emailed code → security answer → new password → the login reaches MFA', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Reactivate my account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reactivate my account' }).waitFor();
    await page.getByRole('textbox', { name: 'Username' }).fill('demo.inactive');
    await typeDate(page, /date of birth/i, DEMO_DOB_DIGITS);
    const since = new Date();
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: /Enter the code we emailed you/ }).waitFor();

    const email = await readEmail(portal.url, {
      to: 'demo.inactive@example.com',
      subject: /reactivation code/,
      since,
    });
    const code = /reactivation code is (\S+)\./.exec(email)?.[1];
    expect(code).toBeDefined();
    await page.getByRole('textbox', { name: /code from the email/i }).fill(code!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('textbox', { name: /your answer/i }).waitFor();
    await expect.poll(() => page.locator('#reactivate-question').innerText()).toMatch(/\?$/);
    await waitForSettled(page);
    await page.getByRole('textbox', { name: /your answer/i }).fill(DEMO_SECURITY_ANSWER);
    await page.getByRole('button', { name: 'Continue' }).click();
    const newPassword = 'saffron harbor lantern bicycle';
    await page.getByLabel(/^new password/i).fill(newPassword);
    await waitForSettled(page);
    await page.getByRole('button', { name: 'Reactivate my account' }).click();
    await expectFocusedHeading(page, 'Your account is active again');

    await page.goto('/login');
    await submitPassword(page, 'demo.inactive', newPassword);
    await expectMfaStep(page);
    await context.close();
  });

  it('reactivation of a locked account says to contact the help desk', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/reactivate');
    await page.getByRole('textbox', { name: 'Username' }).fill('demo.locked');
    await typeDate(page, /date of birth/i, DEMO_DOB_DIGITS);
    const since = new Date();
    await page.getByRole('button', { name: 'Email me a code' }).click();
    const email = await readEmail(portal.url, { to: 'demo.locked@example.com', subject: /reactivation code/, since });
    await page
      .getByRole('textbox', { name: /code from the email/i })
      .fill(/reactivation code is (\S+)\./.exec(email)![1]!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectFocusedHeading(page, 'Contact the help desk');
    await page.getByText(/locked and cannot be reactivated online/).waitFor();
    await context.close();
  });

  it("find my administrator: the J5 demo location's administrator with a masked email; a wrong TIN: no match", async () => {
    const location = firstJ5Location();
    const { context, page } = await portal.newPage();
    // `/` is server-rendered: the Help menu opens once React has hydrated it.
    await gotoHydrated(page, '/');
    await page.getByRole('button', { name: 'Help' }).click();
    await page.getByRole('menuitem', { name: 'Find my administrator' }).click();
    await page.getByRole('textbox', { name: /NPI/ }).fill(location.npi);
    await page.getByRole('textbox', { name: /PTAN/ }).fill(location.ptan);
    await page.getByRole('textbox', { name: /TIN/ }).fill(location.tin);
    await page.getByRole('button', { name: 'Find administrator' }).click();
    await expectFocusedHeading(page, "This location's administrator");
    const items = await page.getByTestId('administrators').getByRole('listitem').allInnerTexts();
    expect(items.map((i) => i.replace(/\s+/g, ' ').trim())).toEqual(['Avery Admin J5 d••••@example.com']);

    await page.getByRole('textbox', { name: /TIN/ }).fill(location.tin === '123456789' ? '987654321' : '123456789');
    await page.getByRole('button', { name: 'Find administrator' }).click();
    await page
      .getByTestId('form-error-summary')
      .getByText(/could not find a provider location/)
      .waitFor();
    await context.close();
  });

  it('DDE access: the login comes back to the form, pre-filled from get-easi; a reference number and an email', async () => {
    const { context, page } = await portal.newPage();
    await page.goto('/dde-access');
    await page.waitForURL('**/login?next=%2Fdde-access');
    await submitPassword(page, 'demo.admin.j5', DEMO_PASSWORD);
    await page
      .getByRole('textbox', { name: /verification code or recovery code/i })
      .fill(await freshTotp(DEMO_ADMIN_SECRET));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dde-access');
    const locationRadio = page.getByRole('radio').first();
    await expect.poll(() => locationRadio.isChecked()).toBe(true);
    await page.getByTestId('dde-enrollment').waitFor();
    await waitForSettled(page);
    // A pending enrollment preselects no request type: the user chooses one.
    const requestTypes = ['New DDE access', 'Change my DDE access', 'Remove my DDE access'].map((name) =>
      page.getByRole('radio', { name }),
    );
    if (!(await Promise.all(requestTypes.map((radio) => radio.isChecked()))).some(Boolean))
      await requestTypes[1]!.check();
    const submitterId = page.getByRole('textbox', { name: /submitter id/i });
    if (!(await submitterId.inputValue())) {
      // The demo location has no enrollment on file: fill in what get-easi could not.
      await page.getByRole('combobox', { name: /dde access type/i }).selectOption('inquiry');
      await submitterId.fill('DEMO12345');
      await page.getByRole('textbox', { name: /network service vendor/i }).fill('Demo Network');
    }
    const since = new Date();
    await page.getByRole('button', { name: 'Send request' }).click();
    await expectFocusedHeading(page, 'Request sent');
    const reference = (await page.getByTestId('dde-reference').innerText()).trim();
    expect(reference).toMatch(/^DDE-\d{4}-\d+$/);
    const email = await readEmail(portal.url, {
      to: 'demo.admin.j5@example.com',
      subject: new RegExp(`DDE access request ${reference} received`),
      since,
    });
    expect(email).toContain(reference);

    // Every screen of this file at 390 px, for axe and for people to look at; the same at 1440.
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto('/dde-access');
      await page.getByRole('button', { name: 'Send request' }).waitFor();
      await waitForSettled(page);
      await screenshot(page, `dde-access-${width}`);
    }
    await context.close();
  });

  it('every login-help screen at 390 px (axe on each) and 1440 px, with screenshots', async () => {
    for (const [width, height] of [
      [390, 844],
      [1440, 900],
    ] as const) {
      const { context, page } = await portal.newPage({ viewport: { width, height } });
      for (const [path, name] of [
        ['/login', 'login'],
        ['/login-help/username', 'forgot-username'],
        ['/login-help/password', 'forgot-password'],
        ['/reset-password#token=not-a-real-token-0000000000', 'reset-password-invalid'],
        ['/reactivate', 'reactivate'],
        ['/find-admin', 'find-admin'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await waitForSettled(page);
        await screenshot(page, `${name}-${width}`);
      }
      // An empty submit: the summary and the field errors at this width.
      await gotoHydrated(page, '/login-help/username');
      await page.getByRole('button', { name: 'Email my username' }).click();
      await page.getByTestId('form-error-summary').waitFor();
      await waitForSettled(page);
      await screenshot(page, `forgot-username-errors-${width}`);
      // The header's Help menu, open.
      await gotoHydrated(page, '/');
      await page.getByRole('button', { name: 'Help' }).click();
      await page.getByRole('menu').waitFor();
      await waitForSettled(page);
      await screenshot(page, `help-menu-${width}`);
      await context.close();
    }
  });
});
