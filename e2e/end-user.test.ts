import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/browser';
import { loginEnrolling } from './support/login';
import { portalSuite } from './support/portal-suite';
import { confirmEmailFromViewer, fillAccountDetails, fillLocationIdentifiers } from './support/registration';

/**
 * An end user (docs/requirements/staff-accounts.md#end-users) registers at `/register/user` for `demo.admin.j5`'s
 * location, opens the verification link from `/dev/mail`, logs in and enrols the authenticator, sees the request
 * pending on the portal home and withdraws it. axe on every new screen; screenshots at 390 and 1440 px.
 */
const LOCATION = { npi: '1015206455', ptan: '750043', tin: '58-2988064', region: 'J5A' } as const;
const PASSWORD = 'Walnut ferry hums under nine lamps';

async function stepHeading(page: Page, step: number) {
  const heading = page.getByRole('heading', { name: new RegExp(`Step ${step} of 3`) });
  await heading.waitFor();
  return heading;
}

describe('end-user registration and access requests', () => {
  const portal = portalSuite({ env: { MAIL_VIEWER: 'true', SEED_LOCATIONS: '250' } });

  async function journey(width: number) {
    const label = `${width}`;
    const username = `e2e.enduser.${width}`;
    const email = `enduser.${width}@office.example`;
    const since = new Date(Date.now() - 1000);
    const { context, page } = await portal.newPage({ viewport: { width, height: 900 }, region: LOCATION.region });

    // Reachable from the login page.
    await page.goto('/login');
    await page.getByRole('link', { name: 'Register as a user' }).click();

    // Step 1: the locations. Continue with none says so; a bad NPI is refused before it is added.
    await stepHeading(page, 1);
    await expect.poll(() => page.getByLabel('Jurisdiction and line of business').inputValue()).toBe(LOCATION.region);
    await expectNoAxeViolations(page, `locations (${label})`);
    await screenshot(page, `register-user-1-locations-${label}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Add at least one provider location you work for.').waitFor();
    await page.getByRole('textbox', { name: /NPI/ }).fill('1234567890');
    await page.getByRole('button', { name: 'Add this location' }).click();
    await page.getByTestId('form-error-summary').waitFor();
    await expectNoAxeViolations(page, `locations errors (${label})`);
    await fillLocationIdentifiers(page, LOCATION);
    await page.getByRole('button', { name: 'Add this location' }).click();
    await page.getByText(`NPI ${LOCATION.npi}, PTAN ${LOCATION.ptan}`).waitFor();
    await expectNoAxeViolations(page, `locations added (${label})`);
    await screenshot(page, `register-user-1-added-${label}`);
    await page.getByRole('button', { name: 'Continue' }).click();

    // Step 2: the account (the fields of /register).
    const heading = await stepHeading(page, 2);
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    await fillAccountDetails(page, {
      firstName: 'Quinn',
      lastName: 'Navarro',
      email,
      phone: '410-555-0144',
      dobDigits: '07221990',
      username,
      password: PASSWORD,
      answerPrefix: 'reply number',
    });
    await expectNoAxeViolations(page, `account (${label})`);
    await screenshot(page, `register-user-2-account-${label}`);
    await page.getByRole('button', { name: 'Create my account' }).click();

    // Step 3: check your email; the link activates the account.
    await stepHeading(page, 3);
    expect(await page.getByTestId('registration-done').innerText()).toContain(email);
    // Who must approve, by name (issue 38 item 5): the location's administrator.
    const approvals = await page.getByTestId('registration-approvals').innerText();
    expect(approvals).toContain('Renner Home Health, LLC');
    expect(approvals).toContain('Avery Admin J5');
    await expectNoAxeViolations(page, `done (${label})`);
    await screenshot(page, `register-user-3-done-${label}`);
    await confirmEmailFromViewer(page, portal.url, email, since);

    // First login: the authenticator is enrolled, then the portal home.
    await loginEnrolling(page, username, PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Portal home' }).waitFor();

    // The request, pending, on the portal home.
    const section = page.getByRole('region', { name: 'Access requests' });
    const request = section.getByTestId('access-request');
    await request.waitFor();
    expect(await request.innerText()).toContain('Renner Home Health, LLC');
    expect(await request.getByTestId('access-request-status').innerText()).toMatch(/Status: Pending/);
    await expectNoAxeViolations(page, `portal home (${label})`);
    await screenshot(page, `end-user-portal-home-${label}`);

    // Withdraw, behind a labelled confirmation dialog (keyboard: the dialog takes the focus, Escape cancels).
    await request.getByRole('button', { name: /Withdraw/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw this access request?' });
    await dialog.waitFor();
    await expectNoAxeViolations(page, `withdraw dialog (${label})`);
    await screenshot(page, `end-user-withdraw-dialog-${label}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await request.getByRole('button', { name: /Withdraw/ }).click();
    await dialog.getByRole('button', { name: 'Withdraw request' }).click();
    await expect.poll(() => section.getByTestId('access-request-status').innerText()).toBe('Status: Withdrawn');
    expect(await request.getByRole('button', { name: /Withdraw/ }).count()).toBe(0);
    await context.close();
  }

  it('registers, verifies, enrols, sees the request pending and withdraws it (1440 px)', async () => {
    await journey(1440);
  }, 240_000);

  it('the same at 390 px', async () => {
    await journey(390);
  }, 240_000);
});
