import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../server/src/db/client';
import { users } from '../server/src/db/schema';
import { DEMO_PASSWORD, DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, screenshot } from './support/browser';
import { freshTotp, submitPassword } from './support/login';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';

/**
 * The optional password maximum age (docs/requirements/session.md#password-maximum-age) against a portal of this file's own with
 * PASSWORD_MAX_AGE_DAYS=90, whose enrolled demo administrator's password was set 100 days ago: password → code → a
 * new password, then on to the page the login was going to.
 */
const MAX_AGE_DAYS = 90;
const USERNAME = 'demo.admin.j5';
const SECRET = DEMO_TOTP_SECRETS[USERNAME]!;
const NEW_PASSWORD = 'violet harbor seventeen lanterns';
// The refused (reused) password answers 400, which Chromium reports as a console error of the page.
const allowConsoleErrors = [/status of 400/];

describe('login with an expired password', () => {
  const portal = portalSuite({
    env: { MAIL_VIEWER: 'true', PASSWORD_MAX_AGE_DAYS: String(MAX_AGE_DAYS) },
    // A first start seeds the demo accounts; with the server stopped, the password is made 100 days old in its
    // database.
    prepare: async ({ dataDir, start }) => {
      await (await start()).stop();
      const database = await openPglite(join(dataDir, 'pgdata'));
      await database.db
        .update(users)
        .set({ passwordChangedAt: new Date(Date.now() - 100 * 86_400_000) })
        .where(eq(users.username, USERNAME));
      await database.close();
    },
    pageDefaults: { allowConsoleErrors },
  });

  it('after the code: "Your password has expired" (axe at 1440 and 390 px), a reused password refused next to the field, then a new one by keyboard continues to next', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    const since = new Date();
    await page.goto('/login?next=%2Faccount');
    await submitPassword(page, USERNAME);
    await page.getByRole('textbox', { name: /verification code or recovery code/i }).fill(await freshTotp(SECRET));
    await page.getByRole('button', { name: 'Verify' }).click();

    const heading = page.getByRole('heading', { name: 'Your password has expired' });
    await heading.waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), { timeout: 15_000 })
      .toBe('Your password has expired');
    expect(await page.getByText(`once yours is ${MAX_AGE_DAYS} days old`).count()).toBe(1);
    // Not logged in yet: every protected call is refused until the new password is set.
    expect((await page.request.get('/api/account')).status()).toBe(401);
    await expectNoAxeViolations(page, 'expired password step at 1440 px');
    await screenshot(page, 'password-expired-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 'expired password step at 390 px');
    await screenshot(page, 'password-expired-390');

    const field = page.locator('#expired-new-password');
    await field.fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Set new password and continue' }).click();
    await expect
      .poll(() => page.locator('#expired-new-password-helper-text').textContent(), { timeout: 15_000 })
      .toContain('You used this password recently');
    await expectNoAxeViolations(page, 'expired password step with an error');
    await screenshot(page, 'password-expired-error-390');

    // A new password as a password manager fills it, then Enter in the field submits the form.
    await field.fill(NEW_PASSWORD);
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/auth/password-change');
    await field.press('Enter');
    expect((await answered).status()).toBe(200);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/account');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect((await page.request.get('/api/account')).status()).toBe(200);
    expect(
      await readEmail(portal.url, { to: `${USERNAME}@example.com`, subject: /password was changed/, since }),
    ).toMatch(/password/i);
    await context.close();
  });
});
