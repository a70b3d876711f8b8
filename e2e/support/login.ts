import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../../server/src/modules/auth/demo-accounts';
import { currentTotp } from '../../server/src/identity/mfa/totp';

/** The login steps the browser tests share (docs/requirements/session.md#login). */

const lastStep = new Map<string, number>();

/**
 * A TOTP code of a step the account has not used yet: the server accepts each step once, ±1 step from now, so a
 * third login within one step waits for the clock to reach the next one. `clockOffsetMs`: the server's clock was
 * moved this far (TEST_CLOCK_FILE, docs/decisions/0043), and it checks codes at its own time.
 */
export async function freshTotp(secret: string, clockOffsetMs = 0) {
  const stepNow = () => Math.floor((Date.now() + clockOffsetMs) / 30_000);
  const step = Math.max(stepNow(), (lastStep.get(secret) ?? 0) + 1);
  await expect.poll(stepNow, { timeout: 65_000, interval: 1_000 }).toBeGreaterThanOrEqual(step - 1);
  lastStep.set(secret, step);
  return currentTotp(secret.replace(/\s/g, ''), new Date(step * 30_000 + 1_000));
}

/** The dialog the app shows once the session has ended (logout, idle, another tab). */
export const endedDialog = (page: Page) => page.getByRole('dialog', { name: 'Your session has been terminated' });

/** Whether the portal still has a logged-in session for this cookie jar (the browser's own, or an old copy of it). */
export async function sessionWith(portal: { url: string }, cookies: { name: string; value: string }[]) {
  const res = await fetch(`${portal.url}/api/session`, {
    headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
  });
  return ((await res.json()) as { data: { loggedIn: boolean } }).data.loggedIn;
}

/** A chosen Log out from the header: it ends on "You have logged out" (no session-ended dialog). */
export async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { level: 1, name: 'You have logged out' }).waitFor();
}

/** Username and password on the login form (already open, or opened with `open`). */
export async function submitPassword(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Opens /login and gives the username and password. */
export async function enterPassword(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await submitPassword(page, username, password);
}

/** The login's second step, once the password was accepted: a code of the authenticator enrolled with `secret`. */
export async function verifyTotp(page: Page, secret: string, clockOffsetMs = 0) {
  await page
    .getByRole('textbox', { name: /verification code or recovery code/i })
    .fill(await freshTotp(secret, clockOffsetMs));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** A whole login of an account enrolled with `secret`, ending logged in. */
export async function loginWithTotp(
  page: Page,
  username: string,
  secret: string,
  password = DEMO_PASSWORD,
  clockOffsetMs = 0,
) {
  await enterPassword(page, username, password);
  await verifyTotp(page, secret, clockOffsetMs);
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

/** First login of an account without MFA: enrols the authenticator and answers its key. */
export async function loginEnrolling(page: Page, username: string, password = DEMO_PASSWORD): Promise<string> {
  await enterPassword(page, username, password);
  const key = (await page.getByTestId('mfa-manual-key').innerText()).trim();
  await page.getByRole('textbox', { name: /6-digit code/i }).fill(await freshTotp(key));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByLabel('I saved my recovery codes').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  return key;
}

/** Types a date into an MUI X date field (its month, day and year sections take the digits in turn). */
export async function typeDate(page: Page, label: RegExp, digits: string) {
  await page.getByRole('group', { name: label }).getByRole('spinbutton', { name: 'Month' }).click();
  await page.keyboard.type(digits);
}
