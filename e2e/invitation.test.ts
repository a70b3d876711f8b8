import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { freshTotp, loginEnrolling, loginWithTotp, logOut, submitPassword } from './support/login';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';
import { fillAccountDetails, newPerson } from './support/registration';

/**
 * Invitations (docs/requirements/staff-accounts.md#invitations) against a portal of this file's own with the mail
 * viewer: `demo.admin.j5` invites by email from `/admin` (keyboard only), the email's link opens `/invitation`, and
 * the invitee either already has an account (`demo.user.j8`: logs in from the page, comes back, accepts) or creates
 * one through the end-user registration with the invitation, confirms the email and has the location after logging
 * in, without a request to approve.
 */
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
const EXISTING = 'demo.user.j8';
// A refused call (a re-authentication asked for, a login step) answers 4xx, which Chromium reports as a console error.
const allowConsoleErrors = [/status of 40[0-9]/];

describe('invitations', () => {
  let locationName = '';
  const suite = portalSuite({
    env: { MAIL_VIEWER: 'true', LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    pageDefaults: { allowConsoleErrors },
  });

  /** As the administrator, keyboard only from the section's button: invites `email` as a user; answers the email's link. */
  async function invite(page: Page, email: string, shots = false, name = ''): Promise<string> {
    const since = new Date();
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await gotoHydrated(page, '/admin');
    const section = page.getByRole('region', { name: 'Invitations' });
    const open = section.getByRole('button', { name: 'Invite a person' });
    await expect.poll(() => open.isEnabled()).toBe(true);
    await waitForSettled(page);
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Invite a person' });
    await dialog.waitFor();
    const emailField = dialog.getByRole('textbox', { name: 'Their email address' });
    await expect.poll(() => emailField.evaluate((el) => el === document.activeElement)).toBe(true);
    if (shots) {
      await expectNoAxeViolations(page, 'invite dialog');
      await screenshot(page, 'invite-dialog-1440');
    }
    await page.keyboard.type(email);
    if (name) {
      await page.keyboard.press('Tab');
      await page.keyboard.type(name);
    }
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('invitations-status').getByText(`We emailed an invitation to ${email}`).waitFor();
    const row = section.getByRole('row', { name: new RegExp(email.replace(/\./g, '\\.')) });
    await row.waitFor();
    // The administrator's one location, as the console names it.
    locationName = (await row.getByRole('cell').nth(0).innerText()).trim();
    if (shots) {
      await expectNoAxeViolations(page, 'console with an open invitation');
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoAxeViolations(page, 'invitations at 390 px');
      await screenshot(page, 'invitations-section-390');
      await page.setViewportSize({ width: 1440, height: 900 });
      await screenshot(page, 'invitations-section-1440');
    }
    await logOut(page);
    const mail = await readEmail(suite.url, { to: email, subject: /invited/i, since });
    expect(mail).toContain(locationName);
    const link = /Open the invitation: (\S+)/.exec(mail)?.[1];
    expect(link).toMatch(/\/invitation#token=[A-Za-z0-9_-]{40,}$/);
    return link!;
  }

  it('an existing user opens the link, logs in from the page, comes back and accepts: the location is theirs', async () => {
    const { page: adminPage } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    const link = await invite(adminPage, `${EXISTING}@example.com`, true);

    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(link);
    const summary = page.getByTestId('invitation-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toContain(locationName);
    // The token left the address bar at once.
    expect(page.url()).not.toContain('#');
    await expectNoAxeViolations(page, 'invitation page at 1440 px');
    await screenshot(page, 'invitation-page-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 'invitation page at 390 px');
    await screenshot(page, 'invitation-page-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByRole('link', { name: 'I already have an account' }).click();
    await page.waitForURL('**/login?next=%2Finvitation');
    await submitPassword(page, EXISTING);
    // Its first login: the authenticator is set up, then back to the invitation.
    const key = (await page.getByTestId('mfa-manual-key').innerText()).trim();
    await page.getByRole('textbox', { name: /6-digit code/i }).fill(await freshTotp(key));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByLabel('I saved my recovery codes').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/invitation');
    const accept = page.getByRole('button', { name: 'Accept the invitation' });
    await accept.waitFor();
    await expectNoAxeViolations(page, 'invitation page logged in');
    await accept.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('invitation-accepted').getByText(`${locationName} is now on your account`).waitFor();
    await screenshot(page, 'invitation-accepted-1440');

    await page.goto('/account');
    const locations = page.getByRole('region', { name: 'Provider locations and roles' });
    await locations.getByRole('row', { name: new RegExp(locationName) }).waitFor();

    // The link works once.
    const { page: again } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await again.goto(link);
    await again
      .getByTestId('invitation-error')
      .getByText(/already used/)
      .waitFor();
  }, 120_000);

  it('a new person opens the link, registers through the invited path with the address filled in, no second confirmation: the location is theirs, no request, the inviter told', async () => {
    const person = newPerson('Rowan', 'Okafor', 'e2e.invited.rowan');
    const { page: adminPage } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    const since = new Date(Date.now() - 1000);
    const link = await invite(adminPage, person.email, false, 'Rowan Okafor');
    // The email greets them by the name the administrator typed.
    expect(await readEmail(suite.url, { to: person.email, subject: /invited/i, since })).toContain(
      'Hello Rowan Okafor,',
    );

    const { page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(link);
    await page.getByTestId('invitation-summary').waitFor();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/register/user');
    // The invited path: straight to the account step, the location coming with the invitation.
    await page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
    await page.getByTestId('register-invited').waitFor();
    await expectNoAxeViolations(page, 'invited registration at 390 px');
    await screenshot(page, 'register-user-invited-390');
    // The invited address is filled in.
    expect(await page.getByRole('textbox', { name: 'Email', exact: true }).inputValue()).toBe(person.email);
    expect(await page.getByRole('textbox', { name: 'Email again' }).inputValue()).toBe(person.email);
    await fillAccountDetails(page, person);
    await page.getByRole('button', { name: 'Create my account' }).click();
    const done = page.getByTestId('registration-done');
    await done.waitFor();
    // The invitation's link proved the address: no second "Confirm your email", the account can log in at once.
    await expect.poll(() => done.innerText()).toMatch(/log in now/i);
    await page.getByRole('heading', { name: /Your account is ready/ }).waitFor();
    expect(await done.innerText()).not.toMatch(/check your email/i);
    await expectNoAxeViolations(page, 'invited registration done');
    await screenshot(page, 'register-user-invited-done-390');

    await loginEnrolling(page, person.username, person.password);
    // The inviter is told.
    const notice = await readEmail(suite.url, {
      to: 'demo.admin.j5@example.com',
      subject: /accepted your invitation/,
      since,
    });
    expect(notice).toContain('Rowan Okafor');
    expect(notice).toContain(locationName);
    const mails = await (await fetch(`${suite.url}/dev/mail`)).text();
    expect(mails).toContain(`to ${person.email},`);
    expect(mails).not.toMatch(new RegExp(`>Confirm your email address</a> to ${person.email.replace(/\./g, '\\.')},`));
    await page.goto('/account');
    const locations = page.getByRole('region', { name: 'Provider locations and roles' });
    await locations.getByRole('row', { name: new RegExp(locationName) }).waitFor();
    // Nothing waited for an approval.
    await page.goto('/portal');
    await page.getByTestId('access-requests-empty').waitFor();
  }, 180_000);

  it('invited twice: the first link says a newer invitation was sent, not that it was withdrawn', async () => {
    const email = 'invited.twice@office.example';
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    const first = await invite(page, email);
    const second = await invite(page, email);
    await page.goto(first);
    const error = page.getByTestId('invitation-error');
    await error.waitFor();
    await expect.poll(() => error.innerText()).toMatch(/newer invitation/);
    expect(await error.innerText()).not.toMatch(/withdrawn/);
    await expectNoAxeViolations(page, 'replaced invitation');
    await screenshot(page, 'invitation-replaced-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'invitation-replaced-390');
    // The newest link works (in a new tab: a link differing only in its fragment would not load the page again).
    const { page: fresh } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await fresh.goto(second);
    await fresh.getByTestId('invitation-summary').waitFor();
  }, 180_000);

  it('registering with another address than the invited one is told so without speaking of an account', async () => {
    const person = newPerson('Sasha', 'Lindgren', 'e2e.invited.sasha');
    const { page: adminPage } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    const link = await invite(adminPage, person.email);
    const { page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(link);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
    await fillAccountDetails(page, { ...person, email: 'someone.else@office.example' });
    await page.getByRole('button', { name: 'Create my account' }).click();
    const summary = page.getByTestId('form-error-summary');
    await summary.waitFor();
    await expect.poll(() => summary.innerText()).toMatch(/sent to a different email address/);
    // The person has no account yet: the text must not speak of "your account".
    expect(await summary.innerText()).not.toMatch(/your account/i);
    await expectNoAxeViolations(page, 'invited registration, another address');
    await screenshot(page, 'register-user-invited-wrong-address-390');
  }, 180_000);
});
