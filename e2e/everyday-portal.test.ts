import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, screenshot, waitForSettled } from './support/browser';
import {
  endedDialog,
  enterPassword,
  freshTotp,
  logOut,
  loginEnrolling,
  sessionWith,
  submitPassword,
  typeDate,
} from './support/login';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';

/**
 * The portal as an office uses it every day (issue 22, items 1, 2, 3 and 9): authenticator codes typed as the app
 * shows them, the login of an account whose email is not verified yet, the portal home after the login, and a chosen
 * Log out. A portal of this file's own, with the mail viewer for the verification emails.
 */
const DEMO_ADMIN_SECRET = DEMO_TOTP_SECRETS['demo.admin.j5']!;
// Refused codes and logins answer 401/403, which Chromium reports as console errors of the page.
const allowConsoleErrors = [/status of 40[0-3]/];
/** A README demo row (proof by check number) nobody else registers on this portal. */
const DEMO_CHECK = { region: 'J5B', npi: '1029158577', ptan: 'BWI0000063', tin: '80-4108675', check: 'EFT100909904' };
const REGISTRATION_PASSWORD = 'Copper kettle drifts over seven hills';

const spaced = (code: string, separator: string) => `${code.slice(0, 3)}${separator}${code.slice(3)}`;

/** The administrator registration's wizard with the demo row, up to its last step. */
async function registerAdministrator(page: Page, username: string, email: string) {
  await page.goto('/register');
  await page.getByRole('textbox', { name: /NPI/ }).fill(DEMO_CHECK.npi);
  await page.getByRole('textbox', { name: /PTAN/ }).fill(DEMO_CHECK.ptan);
  await page.getByRole('textbox', { name: /TIN/ }).fill(DEMO_CHECK.tin);
  await page.getByRole('button', { name: 'Find my provider location' }).click();
  await page.getByRole('button', { name: 'This is my location, continue' }).click();
  await page.getByRole('radio', { name: /check or EFT number/ }).check();
  await page.getByRole('textbox', { name: /check or EFT number/i }).fill(DEMO_CHECK.check);
  await page.getByRole('button', { name: 'Verify and continue' }).click();
  await page.getByRole('heading', { name: /Step 3 of 4/ }).waitFor();
  await page.getByRole('textbox', { name: 'First name' }).fill('Robin');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Hale');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Email again' }).fill(email);
  await page.getByRole('textbox', { name: 'Phone' }).fill('410-555-0199');
  await typeDate(page, /date of birth/i, '07221980');
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.locator('#register-password').fill(REGISTRATION_PASSWORD);
  await page.locator('#register-password-confirmation').fill(REGISTRATION_PASSWORD);
  for (const index of [0, 1, 2]) {
    const row = page.getByRole('group', { name: `Security question ${index + 1}` });
    await row.getByRole('combobox').selectOption({ index: index + 1 });
    await row.getByRole('textbox', { name: 'Answer' }).fill(`answer number ${index + 1}`);
  }
  await page.getByRole('button', { name: 'Create my account' }).click();
}

/** The link of the newest "Confirm your email address" email to `email` since `since`. */
async function verificationLink(portalUrl: string, email: string, since: Date) {
  const text = await readEmail(portalUrl, { to: email, subject: /: Confirm your email address$/, since });
  const link = /https?:\/\/\S+\/verify-email#token=[A-Za-z0-9_-]+/.exec(text)?.[0];
  expect(link, 'the verification link in the email').toBeDefined();
  return link!;
}

describe('the portal as an office uses it every day', { timeout: 180_000 }, () => {
  const portal = portalSuite({
    env: { MAIL_VIEWER: 'true', LOGIN_ATTEMPTS_PER_MINUTE: '200', SEED_LOCATIONS: '250' },
    pageDefaults: { allowConsoleErrors },
  });

  it('1. codes typed as authenticator apps show them ("123 456", "123-456") are taken; the error box holds only the current error; the setup does not mention recovery codes', async () => {
    const { page } = await portal.newPage();
    await enterPassword(page, 'demo.user.j5');
    const key = (await page.getByTestId('mfa-manual-key').innerText()).trim();
    const setupCode = page.getByRole('textbox', { name: /6-digit code/i });
    const summary = page.getByTestId('form-error-summary');

    // A wrong code with a space reaches the server; its answer fits the first setup.
    await setupCode.fill('000 000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await summary.getByText(/That code is not correct/).waitFor();
    expect(await summary.innerText()).not.toMatch(/recovery code/i);
    await expectNoAxeViolations(page, 'the setup refusing a wrong code');
    // Then a code typed short: only the form's own message, not the server's old one beside it.
    await setupCode.fill('12');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => summary.innerText()).not.toMatch(/That code is not correct/);
    expect(await summary.getByRole('listitem').allInnerTexts()).toEqual([
      'Enter the 6-digit code your authenticator app shows.',
    ]);

    await setupCode.fill(spaced(await freshTotp(key), ' '));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await page.getByLabel('I saved my recovery codes').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/portal');

    // The second factor of the next login, typed with a hyphen.
    await logOut(page);
    await enterPassword(page, 'demo.user.j5');
    await page
      .getByRole('textbox', { name: /verification code or recovery code/i })
      .fill(spaced(await freshTotp(key), '-'));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/portal');
    await page.getByRole('heading', { level: 1, name: 'Portal home' }).waitFor();
  });

  it('2. the registration ends on "Check your email"; the right password of an unverified account says so and sends a new link', async () => {
    const { page } = await portal.newPage({ region: DEMO_CHECK.region });
    const username = 'e2e.unverified.admin';
    const email = 'unverified.admin@clinic.example';
    await registerAdministrator(page, username, email);
    const done = page.getByTestId('registration-done');
    await page.getByRole('heading', { name: /Step 4 of 4\s*Check your email/ }).waitFor();
    expect(await done.innerText()).toContain(email);
    expect(await page.getByRole('link', { name: 'Go to log in' }).count()).toBe(0);
    await expectNoAxeViolations(page, 'registration: check your email');

    await page.goto('/login');
    await submitPassword(page, username, REGISTRATION_PASSWORD);
    const summary = page.getByTestId('form-error-summary');
    await summary.getByText(/email address needs verifying/).waitFor();
    expect(await summary.innerText()).not.toMatch(/username or password is not correct/);
    await expectNoAxeViolations(page, 'login: email not verified');
    const since = new Date();
    const resend = page.getByRole('form', { name: 'Send a new link' });
    await resend.getByRole('textbox', { name: /email you registered with/i }).fill(email);
    await resend.getByRole('button', { name: 'Send a new link' }).click();
    await page.getByText(/we sent a new verification link/).waitFor();

    await page.goto(await verificationLink(portal.url, email, since));
    await page.getByTestId('verify-email-success').waitFor();
    await enterPassword(page, username, REGISTRATION_PASSWORD);
    await page.getByTestId('mfa-manual-key').waitFor();
  });

  it('3. the login lands on the portal home: locations and roles, actions, DDE requests; the portal menu; keyboard and axe', async () => {
    const { page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto('/portal');
    await page.waitForURL('**/login?next=%2Fportal');
    await page.getByRole('button', { name: 'Help' }).waitFor();

    await page.goto('/login');
    await submitPassword(page, 'demo.admin.j5');
    await page
      .getByRole('textbox', { name: /verification code or recovery code/i })
      .fill(await freshTotp(DEMO_ADMIN_SECRET));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/portal');
    await page.getByRole('heading', { level: 1, name: 'Portal home' }).waitFor();
    await page.getByText('Welcome, Avery.').waitFor();
    const locations = page.getByRole('region', { name: 'Your provider locations and roles' });
    expect(await locations.innerText()).toMatch(/J5 · Part [AB] · TIN \*+\d{4} · Your role: Administrator/);
    const requests = page.getByRole('region', { name: 'Your DDE access requests' });
    await requests.getByText('You have not sent a DDE access request yet.').waitFor();

    // The header: the portal's own menu, and Help (contact us, find my administrator) stays when logged in.
    const nav = page.getByRole('navigation', { name: 'Portal' });
    for (const name of ['Portal home', 'DDE access', 'My account']) await nav.getByRole('link', { name }).waitFor();
    expect(await page.getByRole('button', { name: 'Help' }).count()).toBe(1);
    await expectNoAxeViolations(page, 'portal home (1440)');
    await screenshot(page, 'portal-home-1440');

    // Keyboard only: Tab from the top of the page to the DDE action, Enter opens it.
    await page.locator('body').focus();
    const action = page
      .getByRole('region', { name: 'What you can do' })
      .getByRole('link', { name: 'Request DDE access' });
    for (let i = 0; i < 30 && !(await action.evaluate((a) => a === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    expect(await action.evaluate((a) => a === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dde-access');

    // A DDE request, then its status on the home.
    await page.getByTestId('dde-enrollment').waitFor();
    await waitForSettled(page);
    const submitterId = page.getByRole('textbox', { name: /submitter id/i });
    if (!(await submitterId.inputValue())) {
      await page.getByRole('combobox', { name: /dde access type/i }).selectOption('inquiry');
      await submitterId.fill('DEMO12345');
      await page.getByRole('textbox', { name: /network service vendor/i }).fill('Demo Network');
    }
    await page.getByRole('button', { name: 'Send request' }).click();
    const reference = (await page.getByTestId('dde-reference').innerText()).trim();
    await nav.getByRole('link', { name: 'Portal home' }).click();
    await page.waitForURL('**/portal');
    const item = requests.getByRole('listitem').first();
    await item.waitFor();
    expect(await item.innerText()).toMatch(
      new RegExp(`Reference ${reference} · Submitted [A-Z][a-z]{2} \\d{1,2}, \\d{4} · Status: Received`),
    );
    await expectNoAxeViolations(page, 'portal home with a request (1440)');
    await screenshot(page, 'portal-home-requests-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 'portal home (390)');
    await screenshot(page, 'portal-home-390');
  });

  it('4. Log out ends on "You have logged out" with a Log in button, not on the session-ended dialog', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 390, height: 844 } });
    // Logged in (wherever the login landed: this test is about the logout).
    await loginEnrolling(page, 'demo.admin.j8');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/logged-out');
    await page.getByRole('heading', { level: 1, name: 'You have logged out' }).waitFor();
    await waitForSettled(page);
    expect(await endedDialog(page).count()).toBe(0);
    expect(await sessionWith(portal, await context.cookies())).toBe(false);
    await expectNoAxeViolations(page, 'logged out');
    await screenshot(page, 'logged-out-390');
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(/\/login$/);
  });
});
