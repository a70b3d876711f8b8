import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { loginEnrolling, loginWithTotp, submitPassword } from './support/login';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';

/**
 * A locked or disabled account, seen from the login page (docs/requirements/session.md#login, #lockout): the right
 * password learns why and how to get back in; a wrong one, or an unknown username, gets the common answer and the same
 * warning before the last tries, so nothing tells someone without the password whether the account exists. Failures
 * count across an administrator's unlocks towards the daily ceiling, past which only the help desk unlocks and the
 * console offers no Unlock; the owner is emailed at each unlock. A portal of this file's own (mail viewer, a daily
 * ceiling of 10).
 */
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
const PERSON = 'demo.user.j5';
const allowConsoleErrors = [/status of 40[0-9]/];
const COMMON = 'The username or password is not correct';

const summary = (page: Page) => page.getByRole('alert').filter({ hasText: 'There is a problem' });

async function wrongPassword(page: Page, username: string) {
  await submitPassword(page, username, 'Not-the-password-1!');
  await summary(page).getByText(COMMON).waitFor();
  return (await summary(page).innerText()).replace(/\s+/g, ' ').trim();
}

/** The summary after `count` wrong passwords in a row (from a fresh login page). */
async function wrongPasswords(page: Page, username: string, count: number) {
  const texts: string[] = [];
  await gotoHydrated(page, '/login');
  for (let i = 0; i < count; i++) {
    texts.push(await wrongPassword(page, username));
    // The answer has arrived and the form is ready for the next try.
    await expect.poll(() => page.getByRole('button', { name: 'Log in' }).isEnabled()).toBe(true);
  }
  return texts;
}

async function rightPassword(page: Page, username: string) {
  await gotoHydrated(page, '/login');
  await submitPassword(page, username, DEMO_PASSWORD);
  await summary(page)
    .getByText(/Your password is right/)
    .waitFor();
  return (await summary(page).innerText()).replace(/\s+/g, ' ').trim();
}

describe('locked and disabled accounts at the login', () => {
  const suite = portalSuite({
    env: { MAIL_VIEWER: 'true', LOGIN_ATTEMPTS_PER_MINUTE: '500', LOGIN_DAILY_FAILURE_CEILING: '10' },
    pageDefaults: { allowConsoleErrors },
  });

  it('warns before the last tries alike for an existing and an unknown username; the right password learns of the lock', async () => {
    const { context, page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    const unknown = await wrongPasswords(page, 'no.such.person', 5);
    const existing = await wrongPasswords(page, PERSON, 5);
    // Nothing tells the two apart: the same texts at each try.
    expect(existing).toEqual(unknown);
    expect(existing[0]).not.toMatch(/more wrong password/);
    expect(existing[2]).toContain('2 more wrong passwords lock the account for 60 minutes');
    expect(existing[3]).toContain('One more wrong password locks the account for 60 minutes');
    await screenshot(page, 'login-warning-1440');
    // Locked now: a wrong password still gets the common answer, the right one learns why and until when.
    expect((await wrongPasswords(page, PERSON, 1))[0]).toEqual((await wrongPasswords(page, 'no.such.person', 1))[0]);
    const locked = await rightPassword(page, PERSON);
    expect(locked).toContain('this account is locked after too many wrong passwords');
    expect(locked).toMatch(/The lock ends at \d{1,2}:\d\d [AP]M \w+; you can log in again then\./);
    expect(locked).toContain('866-555-0100');
    const help = page.getByTestId('login-blocked-help');
    await help.getByRole('link', { name: 'Find my administrator' }).waitFor();
    await help.getByRole('link', { name: /Contact us/ }).waitFor();
    await expectNoAxeViolations(page, 'login: locked');
    await screenshot(page, 'login-locked-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    await screenshot(page, 'login-locked-390');
    await context.close();
  });

  it('says when an account is disabled for inactivity, with the way to reactivate it', async () => {
    const { context, page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    expect((await wrongPasswords(page, 'demo.inactive', 1))[0]).not.toContain('Your password is right');
    const text = await rightPassword(page, 'demo.inactive');
    expect(text).toContain('not used for a long time');
    await page.getByTestId('login-blocked-help').getByRole('link', { name: 'Reactivate my account' }).waitFor();
    await screenshot(page, 'login-inactive-390');
    await context.close();
  });

  it('counts wrong passwords across an unlock to the daily ceiling; then only the help desk unlocks', async () => {
    const since = new Date();
    const { context, page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    // The first test locked demo.user.j5 after 5 wrong passwords (plus one while locked, which counts nothing).
    const admin = await context.browser()!.newContext({ baseURL: suite.url, viewport: { width: 1440, height: 900 } });
    await admin.addCookies([
      { name: 'region', value: 'J5A', url: suite.url },
      { name: 'amaApproved', value: 'true', url: suite.url },
    ]);
    const adminPage = await admin.newPage();
    await loginWithTotp(adminPage, ADMIN, ADMIN_SECRET);
    const openPerson = async () => {
      await gotoHydrated(adminPage, '/admin');
      const people = adminPage.getByRole('region', { name: 'People of my locations' });
      await people.getByRole('searchbox', { name: 'Name, username or email' }).fill(PERSON);
      await people.getByRole('button', { name: 'Search' }).click();
      const person = people.getByRole('listitem').filter({ hasText: PERSON });
      await person.getByText('Locked', { exact: true }).waitFor();
      return person;
    };
    let person = await openPerson();
    await person.getByRole('button', { name: 'Unlock' }).click();
    await adminPage
      .getByRole('dialog', { name: /^Unlock / })
      .getByRole('button', { name: 'Unlock' })
      .click();
    // The result shows on the person's card, next to the button (issue 38 item 4).
    await person
      .getByTestId('person-status')
      .getByText(/account is unlocked/)
      .waitFor();
    // The owner is told of the unlock.
    expect(await readEmail(suite.url, { to: `${PERSON}@example.com`, subject: /unlocked/i, since })).toContain(
      'unlocked your account',
    );

    // Five more wrong passwords: the tenth of the day reaches the ceiling.
    await wrongPasswords(page, PERSON, 5);
    const text = await rightPassword(page, PERSON);
    expect(text).toContain('Only the help desk can unlock it now');
    expect(text).not.toContain('The lock ends at');
    await expectNoAxeViolations(page, 'login: help desk only');
    await screenshot(page, 'login-help-desk-only-1440');
    expect(await readEmail(suite.url, { to: `${PERSON}@example.com`, subject: /locked/i, since })).toContain(
      'Only the help desk can unlock it now',
    );

    // The console offers no Unlock and says why; the API refuses it too.
    person = await openPerson();
    await person
      .getByTestId('unlock-needs-help-desk')
      .getByText(/only the help desk can unlock this account/)
      .waitFor();
    expect(await person.getByRole('button', { name: 'Unlock' }).count()).toBe(0);
    await expectNoAxeViolations(adminPage, 'console: help desk only');
    await screenshot(adminPage, 'admin-unlock-help-desk-1440');
    await adminPage.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(adminPage);
    await screenshot(adminPage, 'admin-unlock-help-desk-390');
    await admin.close();
    await context.close();
  });

  it('someone logged out by a disable or a second-factor reset is told why on /login', async () => {
    const USER = 'demo.user.due';
    const { context, page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    const admin = await context.browser()!.newContext({ baseURL: suite.url, viewport: { width: 1440, height: 900 } });
    await admin.addCookies([
      { name: 'region', value: 'J5A', url: suite.url },
      { name: 'amaApproved', value: 'true', url: suite.url },
    ]);
    const adminPage = await admin.newPage();
    await loginWithTotp(adminPage, ADMIN, ADMIN_SECRET);
    const act = async (button: string, confirm: RegExp, done: RegExp) => {
      await gotoHydrated(adminPage, '/admin');
      const people = adminPage.getByRole('region', { name: 'People of my locations' });
      await people.getByRole('searchbox', { name: 'Name, username or email' }).fill(USER);
      await people.getByRole('button', { name: 'Search' }).click();
      const card = people.getByRole('listitem').filter({ hasText: USER });
      await card.getByRole('button', { name: button }).click();
      await adminPage.getByRole('dialog', { name: confirm }).getByRole('button', { name: button }).click();
      await card.getByTestId('person-status').getByText(done).waitFor();
    };

    // Disabled while working: the next request ends the session, the dialog's Login opens /login with the reason.
    const secret = await loginEnrolling(page, USER);
    await act('Disable account', /^Disable /, /account is disabled/);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'My account' }).click();
    const ended = page.getByRole('dialog', { name: 'Your session has been terminated' });
    await ended.waitFor();
    await ended.getByRole('button', { name: 'Login' }).click();
    const why = page.getByTestId('login-session-ended');
    await why.getByText(/an administrator of your provider location disabled your account/).waitFor();
    await expectNoAxeViolations(page, 'login after a disable');
    await screenshot(page, 'login-after-disable-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    await screenshot(page, 'login-after-disable-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Enabled again, logged in again; a second-factor reset, then a reload: the login page says why.
    await act('Re-enable account', /^Re-enable /, /enabled again/);
    await loginWithTotp(page, USER, secret);
    await act('Reset two-step verification', /^Reset /, /was reset/);
    await page.reload();
    await page
      .getByTestId('login-session-ended')
      .getByText(/reset your two-step verification/)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await admin.close();
    await context.close();
  });
});
