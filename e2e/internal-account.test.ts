import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { DEMO_PASSWORD } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, screenshot, waitForSettled } from './support/browser';
import { loginEnrolling } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Contractor staff (internal) accounts on My account (docs/requirements/session.md#credential-changes): their
 * password belongs to the enterprise directory, so a change is refused with the directory message next to the new
 * password and in the error summary.
 */
const DIRECTORY_MESSAGE = /managed by the enterprise directory/;
// The refused change answers 400, which Chromium reports as a console error of the page.
const allowConsoleErrors = [/status of 400/];

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('internal account', () => {
  const portal = portalSuite({ pageDefaults: { allowConsoleErrors } });

  it('change password is refused with the enterprise-directory message (axe and screenshots at 1440 and 390 px)', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginEnrolling(page, 'demo.internal');
    await page.goto('/account');
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    await waitForSettled(page);
    // My account's forms open from their section's Change action.
    const form = section(page, 'Password');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByLabel(/^current password/i).fill(DEMO_PASSWORD);
    await form.getByLabel(/^new password/i).fill('Violet canyon ember rhythm 42');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.locator('#new-password-helper-text').getByText(DIRECTORY_MESSAGE).waitFor();
    await form.getByTestId('form-error-summary').getByText(DIRECTORY_MESSAGE).first().waitFor();
    await form.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page, 'change password refused for an internal account at 1440 px');
    await screenshot(page, 'internal-change-password-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    await expectNoAxeViolations(page, 'change password refused for an internal account at 390 px');
    await screenshot(page, 'internal-change-password-390');
    await context.close();
  }, 150_000);
});
