import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/browser';
import { typeDate } from './support/login';
import { portalSuite } from './support/portal-suite';
import { confirmEmailFromViewer, fillAccountDetails, fillLocationIdentifiers } from './support/registration';

/**
 * A new administrator completes `/register` (docs/requirements/portal.md#administrator-self-registration) with the
 * README's demo data, once per way of proving authority and each time for a location no one has registered yet,
 * opens the verification link from `/dev/mail`, and the account is active: the login reaches the authenticator set-up.
 * The portal is this file's own, seeded with the default 250 demo locations the README's table comes from.
 */
const DEMO = {
  claim: { region: 'J5A', npi: '1046498295', ptan: '740013', tin: '54-2733950', claimNumber: '1969800000039AS' },
  check: { region: 'J5B', npi: '1029158577', ptan: 'BWI0000063', tin: '80-4108675', checkNumber: 'EFT100909904' },
  patient: {
    region: 'J8B',
    npi: '1095199638',
    ptan: 'BJW0000120',
    tin: '83-6647097',
    mbi: '3D21AY6MP78',
    dosDaysAgo: 24,
  },
} as const;
type Proof = keyof typeof DEMO;

const PASSWORD = 'Copper kettle drifts over seven hills';

/** MM/DD/YYYY of `days` before today (UTC, the day the portal seeded its demo claims). */
function usDateDaysAgo(days: number): string {
  const date = new Date(Date.now() - days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${date.getUTCFullYear()}`;
}

async function stepHeading(page: Page, step: number) {
  const heading = page.getByRole('heading', { name: new RegExp(`Step ${step} of 4`) });
  await heading.waitFor();
  return heading;
}

describe('administrator registration', () => {
  const portal = portalSuite({ env: { MAIL_VIEWER: 'true', SEED_LOCATIONS: '250' } });

  async function register(proof: Proof, width: number) {
    const demo = DEMO[proof];
    const label = `${proof}-${width}`;
    const username = `e2e.${proof}.admin`;
    const email = `${proof}.admin@clinic.example`;
    const since = new Date(Date.now() - 1000);
    const { context, page } = await portal.newPage({ viewport: { width, height: 900 }, region: demo.region });

    // Reachable from the login page.
    await page.goto('/login');
    await screenshot(page, `login-${label}`);
    await page.getByRole('link', { name: 'Register as an administrator' }).click();

    // Step 1: provider location, the region pre-filled from the chosen jurisdiction.
    await stepHeading(page, 1);
    await expect.poll(() => page.getByLabel('Jurisdiction and line of business').inputValue()).toBe(demo.region);
    await expectNoAxeViolations(page, `step 1 (${label})`);
    await screenshot(page, `register-1-provider-${label}`);
    await page.getByRole('button', { name: 'Find my provider location' }).click();
    await page.getByTestId('form-error-summary').waitFor();
    await expectNoAxeViolations(page, `step 1 errors (${label})`);
    await fillLocationIdentifiers(page, demo);
    await page.getByRole('button', { name: 'Find my provider location' }).click();
    const location = page.getByRole('region', { name: 'Matched provider location' });
    await location.waitFor();
    expect(await location.innerText()).toContain(`***${demo.tin.slice(-4)}`);
    await expectNoAxeViolations(page, `step 1 location (${label})`);
    await screenshot(page, `register-1-location-${label}`);
    await page.getByRole('button', { name: 'This is my location, continue' }).click();

    // Step 2: authority.
    const authorityHeading = await stepHeading(page, 2);
    await expect.poll(() => authorityHeading.evaluate((h) => h === document.activeElement)).toBe(true);
    if (proof === 'claim') {
      await page.getByRole('radio', { name: 'A claim number' }).check();
      await page.getByRole('textbox', { name: /claim number/i }).fill(DEMO.claim.claimNumber);
    } else if (proof === 'check') {
      await page.getByRole('radio', { name: /check or EFT number/ }).check();
      await page.getByRole('textbox', { name: /check or EFT number/i }).fill(DEMO.check.checkNumber);
    } else {
      await page.getByRole('radio', { name: /Medicare number/ }).check();
      await page.getByRole('textbox', { name: /MBI/ }).fill(DEMO.patient.mbi);
      await typeDate(page, /date of service/i, usDateDaysAgo(DEMO.patient.dosDaysAgo));
    }
    await expectNoAxeViolations(page, `step 2 (${label})`);
    await screenshot(page, `register-2-authority-${label}`);
    await page.getByRole('button', { name: 'Verify and continue' }).click();

    // Step 3: the administrator.
    await stepHeading(page, 3);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByTestId('form-error-summary').waitFor();
    await expect.poll(() => page.getByTestId('form-error-summary').innerText()).toContain('Date of Birth is invalid');
    await expectNoAxeViolations(page, `step 3 errors (${label})`);
    await fillAccountDetails(page, {
      firstName: 'Morgan',
      lastName: 'Ellis',
      email,
      phone: '410-555-0123',
      dobDigits: '03141975',
      username,
      password: PASSWORD,
      answerPrefix: 'answer number',
    });
    await expectNoAxeViolations(page, `step 3 (${label})`);
    await screenshot(page, `register-3-administrator-${label}`);
    await page.getByRole('button', { name: 'Create my account' }).click();

    // Step 4: done.
    await stepHeading(page, 4);
    expect(await page.getByTestId('registration-done').innerText()).toContain(email);
    await expectNoAxeViolations(page, `step 4 (${label})`);
    await screenshot(page, `register-4-done-${label}`);

    // The verification email, read from the mail viewer over HTTP (a developer page, not part of the portal's UI).
    await confirmEmailFromViewer(page, portal.url, email, since);
    await screenshot(page, `register-5-verified-${label}`);

    // The account is active: the login goes on to the authenticator set-up.
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Username' }).fill(username);
    await page.locator('#login-password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('img', { name: /qr code/i }).waitFor();
    await context.close();
  }

  it('with a claim number (1440 px)', async () => {
    await register('claim', 1440);
  }, 180_000);

  it('with a check/EFT number (390 px)', async () => {
    await register('check', 390);
  }, 180_000);

  it('with a patient MBI and date of service (1440 px)', async () => {
    await register('patient', 1440);
  }, 180_000);
});
