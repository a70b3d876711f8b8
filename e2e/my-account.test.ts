import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { enterPassword, logOut, loginEnrolling, loginWithTotp, sessionWith } from './support/login';
import { readEmail } from './support/mail';
import { portalSuite, type PortalSuite } from './support/portal-suite';
import { addVirtualAuthenticator } from './support/webauthn';

/**
 * My account, passkeys and re-authentication (docs/requirements/session.md#my-account) against a portal of this
 * file's own whose re-authentication window is 30 s: changes made right after a login go through, and the re-auth
 * test waits until the server says the login is too old.
 */
const REAUTH_WINDOW_MS = 30_000;
const NEW_PASSWORD = 'Violet canyon ember rhythm 42';
const ADMIN_SECRET = DEMO_TOTP_SECRETS['demo.admin.j5']!;
// A refused login or account change answers 4xx, which Chromium reports as a console error of the page.
const allowConsoleErrors = [/status of 40[0-3]/];

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function openAccount(page: Page) {
  await gotoHydrated(page, '/account');
  await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
  await waitForSettled(page);
}

describe('My account', () => {
  const portal = portalSuite({
    env: { REAUTHENTICATION_WINDOW_MS: String(REAUTH_WINDOW_MS), LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    pageDefaults: { allowConsoleErrors },
  });

  async function newPage(viewport = { width: 1440, height: 900 }) {
    return portal.newPage({ viewport });
  }

  it('login → My account (axe at 1440 and 390 px) → add a passkey with the virtual authenticator → logout → password + passkey', async () => {
    const { context, page } = await newPage();
    await addVirtualAuthenticator(context, page);
    await loginWithTotp(page, 'demo.admin.j5', ADMIN_SECRET);
    await page.getByRole('link', { name: 'My account' }).click();
    await page.waitForURL('**/account');
    await section(page, 'Profile').getByText('demo.admin.j5', { exact: true }).waitFor();
    await section(page, 'Provider locations and roles').getByRole('cell', { name: 'Administrator' }).waitFor();
    await section(page, "Where you're logged in").getByText('This session').waitFor();
    await section(page, 'Recent activity').getByRole('row').nth(1).waitFor();

    const passkeys = section(page, 'Passkeys');
    await passkeys.getByText('You have no passkeys yet.').waitFor();
    await passkeys.getByRole('textbox', { name: 'Passkey name' }).fill('Test laptop');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByTestId('passkeys-status').getByText('Passkey "Test laptop" added.').waitFor();
    const row = passkeys.getByRole('row', { name: /Test laptop/ });
    await expect.poll(() => row.innerText()).toMatch(/Never/);
    await waitForSettled(page);
    await expectNoAxeViolations(page, 'My account at 1440 px');
    await screenshot(page, 'account-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    await expectNoAxeViolations(page, 'My account at 390 px');
    await screenshot(page, 'account-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    await logOut(page);
    await enterPassword(page, 'demo.admin.j5');
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await openAccount(page);
    const passkeyRow = section(page, 'Passkeys').getByRole('row', { name: /Test laptop/ });
    await expect.poll(() => passkeyRow.innerText()).not.toMatch(/Never/);

    // The passkey dialogs pass axe too, then are left without a change.
    await passkeyRow.getByRole('button', { name: 'Rename Test laptop' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename passkey' });
    await rename.waitFor();
    await expectNoAxeViolations(page, 'rename passkey dialog');
    await rename.getByRole('button', { name: 'Cancel' }).click();
    await rename.waitFor({ state: 'detached' });
    await passkeyRow.getByRole('button', { name: 'Remove Test laptop' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove this passkey?' });
    await remove.waitFor();
    await expectNoAxeViolations(page, 'remove passkey dialog');
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await remove.waitFor({ state: 'detached' });
    await context.close();
  }, 150_000);

  it('opened on a phone whose browser is never idle: a section renders when scrolled near, and one jumped to from the list of sections is there with its heading focused', async () => {
    const { context, page } = await newPage({ width: 390, height: 844 });
    await loginWithTotp(page, 'demo.admin.j5', ADMIN_SECRET);
    // No idle moment ever: only the viewport and the list of sections render the sections below the first screen.
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    await gotoHydrated(page, '/account');
    const placeholder = (name: string) => section(page, name).locator('[data-render-when-near]');
    // Every heading is in the page from the start; the last sections wait, well below the first screen.
    await section(page, 'Profile').getByText('demo.admin.j5', { exact: true }).waitFor();
    await expect.poll(() => placeholder('Recent activity').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 2, name: 'Recent activity' }).count()).toBe(1);

    const passkeys = section(page, 'Passkeys');
    await passkeys.scrollIntoViewIfNeeded();
    await passkeys.getByRole('button', { name: 'Add a passkey' }).waitFor();

    await page
      .getByRole('navigation', { name: 'My account sections' })
      .getByRole('link', { name: 'Recent activity' })
      .click();
    // At once: the section's content (its loading state or its table) and the focus on its heading.
    expect(await placeholder('Recent activity').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('activity-title');
    const top = () =>
      page.getByRole('heading', { level: 2, name: 'Recent activity' }).evaluate((h) => h.getBoundingClientRect().top);
    const jumped = await top();
    await waitForSettled(page);
    // Nothing above it changed height after the jump.
    expect(Math.abs((await top()) - jumped)).toBeLessThan(1);
    await section(page, 'Recent activity').getByRole('table', { name: 'Recent activity' }).waitFor();
    await context.close();
  }, 90_000);

  it('opened from its address, the sections show the account from the page itself: the browser asks the API for none of it', async () => {
    const { context, page } = await newPage({ width: 390, height: 844 });
    await loginWithTotp(page, 'demo.admin.j5', ADMIN_SECRET);
    // Off the portal home first: its own reads are not this page's.
    await page.goto('about:blank');
    // Every read of My account's API refused: what the sections show came with the page (docs/decisions/0034).
    const asked: string[] = [];
    await page.route('**/api/account**', (route) => {
      asked.push(new URL(route.request().url()).pathname);
      return route.abort();
    });
    await page.goto('/account');
    await section(page, 'Profile').getByText('demo.admin.j5', { exact: true }).waitFor();
    await section(page, 'Provider locations and roles').getByRole('cell', { name: 'Administrator' }).waitFor();
    await section(page, 'Passkeys').getByRole('button', { name: 'Add a passkey' }).waitFor();
    await section(page, "Where you're logged in").getByText('This session').waitFor();
    await section(page, 'Recent activity').getByRole('row').nth(1).waitFor();
    await waitForSettled(page);
    expect(asked).toEqual([]);
    await context.close();
  }, 90_000);

  it('change password: other sessions end, the old password no longer logs in, the new one does', async () => {
    const { context, page } = await newPage();
    await loginEnrolling(page, 'demo.admin.j8');
    await openAccount(page);
    const form = section(page, 'Password');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByLabel(/^current password/i).fill(DEMO_PASSWORD);
    await form.getByLabel(/^new password/i).fill(NEW_PASSWORD);
    await expect.poll(() => form.locator('[data-rule][data-met="false"]').count()).toBe(0);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByTestId('password-status')
      .getByText(/Your password was changed/)
      .waitFor();
    await expectNoAxeViolations(page, 'My account after a password change');

    await logOut(page);
    await enterPassword(page, 'demo.admin.j8', DEMO_PASSWORD);
    await page
      .getByTestId('form-error-summary')
      .getByText(/username or password is not correct/)
      .waitFor();
    await enterPassword(page, 'demo.admin.j8', NEW_PASSWORD);
    await page.getByRole('textbox', { name: /verification code or recovery code/i }).waitFor();
    await context.close();
  }, 120_000);

  it('sign out everywhere else: asks first, then the other browser’s session is refused (axe on the dialog at 1440 and 390 px)', async () => {
    const other = await newPage();
    await loginWithTotp(other.page, 'demo.admin.j5', ADMIN_SECRET);
    const { context, page } = await newPage();
    await loginWithTotp(page, 'demo.admin.j5', ADMIN_SECRET);
    const otherCookies = await other.context.cookies();
    expect(await sessionWith(portal, otherCookies)).toBe(true);

    await openAccount(page);
    const sessions = section(page, "Where you're logged in");
    await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page, 'sign-out-everywhere dialog at 1440 px');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 'sign-out-everywhere dialog at 390 px');
    await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page
      .getByTestId('sessions-status')
      .getByText(/You were signed out of \d+ other session/)
      .waitFor();
    expect(await sessionWith(portal, otherCookies)).toBe(false);
    expect(await sessionWith(portal, await context.cookies())).toBe(true);
    await sessions.getByText('You are not logged in anywhere else.').waitFor();

    // The other browser finds out at its next call: the session-ended dialog, never a silent failure.
    await other.page.goto('/account');
    await other.page.waitForURL(/\/login\?next=%2Faccount$/);
    await other.context.close();
    await context.close();
  }, 150_000);

  it('an account change after the re-authentication window asks for the password in a labelled dialog, then goes on', async () => {
    const { context, page } = await newPage();
    await loginEnrolling(page, 'demo.user.j5');
    // The login's time (the server's authenticated_at) is set before the login answers: after this, plus the window,
    // the server refuses account changes whatever the rounding of what it reports.
    const loggedInBy = Date.now();
    await openAccount(page);
    await expect
      .poll(() => Date.now() - loggedInBy, { timeout: REAUTH_WINDOW_MS + 30_000, interval: 1_000 })
      .toBeGreaterThan(REAUTH_WINDOW_MS);
    // And the server agrees that the login is too old for account changes.
    const res = await page.request.get('/api/account', { headers: { 'x-portal-request': '1' } });
    expect(
      ((await res.json()) as { data: { recentAuthenticationSecondsLeft: number } }).data
        .recentAuthenticationSecondsLeft,
    ).toBe(0);

    const mfa = section(page, 'Authenticator app and recovery codes');
    await mfa.getByRole('button', { name: 'Set up a new authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('reauth-password');
    await expectNoAxeViolations(page, 're-authentication dialog at 1440 px');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 're-authentication dialog at 390 px');
    await page.setViewportSize({ width: 1440, height: 900 });

    await dialog.getByLabel(/^password/i).fill('not my password at all');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText(/username or password is not correct/).waitFor();
    await dialog.getByLabel(/^password/i).fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The change went on by itself: the new authenticator's QR code and key.
    await mfa.getByRole('img', { name: /qr code/i }).waitFor();
    await mfa.getByTestId('mfa-manual-key').waitFor();
    await expectNoAxeViolations(page, 'MFA reset setup');
    await context.close();
  }, 120_000);
});

describe('My account contact details', () => {
  // A portal of this describe's own: the mail viewer on (the link is read from /dev/mail), the usual 20-minute window.
  const mailPortal = portalSuite({ env: { MAIL_VIEWER: 'true' }, pageDefaults: { allowConsoleErrors } });

  it('change phone, security questions and email (the link opened from /dev/mail, logged out); axe with each form at 1440 and 390 px', async () => {
    await changeContactDetails(mailPortal, (viewport = { width: 1440, height: 900 }) =>
      mailPortal.newPage({ viewport }),
    );
  }, 180_000);
});

/** Phone, security questions and email on My account, on a portal whose mail viewer is on. */
async function changeContactDetails(
  portal: PortalSuite,
  newPage: (viewport?: { width: number; height: number }) => Promise<{ context: BrowserContext; page: Page }>,
) {
  const { context, page } = await newPage();
  await loginEnrolling(page, 'demo.user.j8');
  await openAccount(page);

  // The sections are reached from a list (beside them at 1440 px, above them at 390 px); every form is closed until
  // its "Change" action is chosen, and the section shows what is on file.
  const nav = page.getByRole('navigation', { name: 'My account sections' });
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await nav.getByRole('link', { name: 'Security questions' }).click();
    const heading = page.getByRole('heading', { level: 2, name: 'Security questions', exact: true });
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => heading.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(200);
  }
  const navBox = (await nav.boundingBox())!;
  const profileBox = (await section(page, 'Profile').boundingBox())!;
  expect(navBox.y + navBox.height).toBeLessThanOrEqual(profileBox.y); // above the sections on a phone
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect
    .poll(async () => (await nav.boundingBox())!.x)
    .toBeLessThan((await section(page, 'Profile').boundingBox())!.x);
  expect(await page.getByRole('textbox', { name: /^new email address/i }).count()).toBe(0);
  expect(await page.getByLabel(/^current password/i).count()).toBe(0);
  const questions = section(page, 'Security questions');
  await expect.poll(() => questions.getByTestId('security-questions-current').getByRole('listitem').count()).toBe(3);
  const questionsBefore = await questions.getByTestId('security-questions-current').innerText();

  const emailForm = section(page, 'Email address');
  const oldEmail = /Your email address is (\S+)\./.exec(await emailForm.innerText())![1]!;
  await emailForm.getByRole('button', { name: 'Change email address' }).click();
  await expect
    .poll(() =>
      emailForm.getByRole('textbox', { name: /^new email address/i }).evaluate((el) => el === document.activeElement),
    )
    .toBe(true);
  const phone = section(page, 'Phone number');
  await phone.getByRole('button', { name: 'Change phone number' }).click();
  await questions.getByRole('button', { name: 'Change security questions' }).click();

  // Each form showing its errors passes axe, at both widths.
  await emailForm.getByRole('button', { name: 'Send the confirmation link' }).click();
  await phone.getByRole('button', { name: 'Change phone' }).click();
  await questions.getByRole('button', { name: 'Change security questions' }).click();
  await expect.poll(() => page.getByTestId('form-error-summary').count()).toBe(3);
  await waitForSettled(page);
  await expectNoAxeViolations(page, 'email, phone and security question forms with errors at 1440 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await waitForSettled(page);
  await expectNoAxeViolations(page, 'email, phone and security question forms with errors at 390 px');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Phone: the form closes and the section and the profile show the new number, masked.
  await phone.getByLabel(/^new phone number/i).fill('(410) 555-0199');
  await phone.getByRole('button', { name: 'Change phone' }).click();
  await page.getByTestId('phone-status').getByText('Your phone number was changed to ***-***-0199.').waitFor();
  await phone.getByTestId('phone-current').getByText('***-***-0199').waitFor();
  await section(page, 'Profile').getByText('***-***-0199').waitFor();
  expect(await phone.getByLabel(/^new phone number/i).count()).toBe(0);

  // Security questions: three different ones from the CMS list; afterwards the section lists them (never answers).
  const chosen: string[] = [];
  for (const index of [0, 1, 2]) {
    const row = questions.getByRole('group', { name: `Security question ${index + 1}` });
    const select = row.getByRole('combobox', { name: /question/i });
    await select.selectOption({ index: index + 4 });
    chosen.push(await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]!.text));
    await row.getByRole('textbox', { name: /answer/i }).fill(`Answer number ${index + 1}`);
  }
  await questions.getByRole('button', { name: 'Change security questions' }).click();
  await page
    .getByTestId('security-questions-status')
    .getByText(/Your security questions and answers were changed/)
    .waitFor();
  const current = questions.getByTestId('security-questions-current');
  await expect.poll(() => current.innerText()).not.toBe(questionsBefore);
  expect((await current.getByRole('listitem').allInnerTexts()).sort()).toEqual([...chosen].sort());
  expect(await questions.innerText()).not.toContain('Answer number');

  // Email: a link to the new address, a notice to the old one; the address changes when the link is opened.
  const newEmail = 'dana.j8.new@clinic.example';
  const since = new Date(Date.now() - 1_000);
  await emailForm.getByLabel(/^new email address/i).fill(newEmail);
  await emailForm.getByRole('button', { name: 'Send the confirmation link' }).click();
  await page.getByTestId('email-status').getByText(`We sent a link to ${newEmail}.`, { exact: false }).waitFor();
  await expect.poll(async () => page.getByTestId('form-error-summary').count()).toBe(0);
  await screenshot(page, 'account-profile-changes-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await waitForSettled(page);
  await expectNoAxeViolations(page, 'My account after the changes at 390 px');
  await screenshot(page, 'account-profile-changes-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  const notice = await readEmail(portal.url, { to: oldEmail, subject: /change of your email address/, since });
  expect(notice).not.toContain(newEmail);
  const message = await readEmail(portal.url, { to: newEmail, subject: /Confirm your new email address/, since });
  const link = new URL(/(http\S+\/confirm-email#token=\S+)/.exec(message)![1]!);
  await section(page, 'Profile').getByText(oldEmail).waitFor();

  // Opened in a browser that is not logged in.
  const elsewhere = await newPage({ width: 390, height: 844 });
  await elsewhere.page.goto(link.pathname + link.hash);
  await elsewhere.page.getByTestId('confirm-email-success').waitFor();
  expect(new URL(elsewhere.page.url()).hash).toBe('');
  await expectNoAxeViolations(elsewhere.page, '/confirm-email at 390 px');
  await elsewhere.context.close();

  await openAccount(page);
  await section(page, 'Profile').getByText(newEmail).waitFor();
  await readEmail(portal.url, { to: oldEmail, subject: /Your email address was changed/, since });
  await screenshot(page, 'account-email-changed-1440');
  await context.close();
}
