import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../server/src/db/client';
import { accessRequests } from '../server/src/db/schema';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { demoLocation } from './support/demo';
import { loginEnrolling, loginWithTotp, logOut, submitPassword, verifyTotp } from './support/login';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';
import { confirmEmailFromViewer, fillAccountDetails, fillLocationIdentifiers, newPerson } from './support/registration';

/**
 * The staff-account journey of issue 23's acceptance (docs/requirements/staff-accounts.md), on a portal of this file's
 * own with the mail viewer and every job every two seconds (TEST_JOB_INTERVAL_MS, docs/decisions/0043): a new end user
 * registers at `/register/user` for `demo.admin.j5`'s location, confirms the email, enrols the authenticator and sees
 * the request pending; the hourly notice reaches `demo.admin.j5`, whose link leads through the login to the console,
 * where they approve; the end user is emailed, has the location on My account and sends a DDE access request for it,
 * then asks for a further location from the portal home and withdraws that request. Deny with a reason is in
 * admin-console.test.ts, an invitation to a new person in invitation.test.ts, suspension in recertification.test.ts.
 */
const SEED_LOCATIONS = 30;
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
// A refused call (a login step, a re-authentication asked for) answers 4xx, which Chromium reports as a console error.
const allowConsoleErrors = [/status of 40[0-9]/];

const escaped = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
const regionOf = (location: { jurisdiction: string; lineOfBusiness: string }) =>
  `${location.jurisdiction}${location.lineOfBusiness}`;

describe('staff accounts from registration to DDE access', () => {
  // demo.admin.j5's location, and demo.admin.j8's for the further request.
  const location = demoLocation(SEED_LOCATIONS, 'J5');
  const further = demoLocation(SEED_LOCATIONS, 'J8');
  const suite = portalSuite({
    env: {
      MAIL_VIEWER: 'true',
      SEED_LOCATIONS: String(SEED_LOCATIONS),
      TEST_JOB_INTERVAL_MS: '2000',
      LOGIN_ATTEMPTS_PER_MINUTE: '200',
    },
    // The demo's own requesters have withdrawn theirs (withdrawn, not deleted, or the demo seeding at start would ask
    // again): the administrator's notices then list this test's requester only, and the weekly digest (every two
    // seconds here) has nothing to repeat.
    prepareData: async (dataDir) => {
      const database = await openPglite(join(dataDir, 'pgdata'));
      await database.db.update(accessRequests).set({ status: 'withdrawn' });
      await database.close();
    },
    pageDefaults: { allowConsoleErrors, viewport: { width: 1440, height: 900 } },
  });

  it('registers → confirms → enrols → pending → the administrator is emailed and approves → approved → DDE access', async () => {
    const person = newPerson('Harper', 'Lindqvist', 'e2e.journey.harper');
    const since = new Date(Date.now() - 1000);
    const { page } = await suite.newPage({ region: regionOf(location) });

    // Registers at /register/user, asking for demo.admin.j5's location.
    await page.goto('/register/user');
    await page.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();
    await fillLocationIdentifiers(page, { ...location, region: regionOf(location) });
    await page.getByRole('button', { name: 'Add this location' }).click();
    await page.getByText(`NPI ${location.npi}, PTAN ${location.ptan}`).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
    await fillAccountDetails(page, person);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByTestId('registration-done').waitFor();

    // Confirms the email, logs in (the authenticator is enrolled at the first login) and sees the request pending.
    await confirmEmailFromViewer(page, suite.url, person.email, since);
    const key = await loginEnrolling(page, person.username, person.password);
    await page.getByRole('heading', { level: 1, name: 'Portal home' }).waitFor();
    const ownRequests = page.getByRole('region', { name: 'Access requests' });
    const request = ownRequests.getByTestId('access-request').filter({ hasText: location.legalName });
    await request.waitFor();
    expect(await request.getByTestId('access-request-status').innerText()).toMatch(/Status: Pending/);
    await logOut(page);

    // The notice of new requests (hourly; every two seconds here) reaches the location's administrator; its link
    // leads through the login to the console.
    const notice = await readEmail(suite.url, {
      to: `${ADMIN}@example.com`,
      subject: /New requests for access to your locations/,
      since,
    });
    expect(notice).toContain(`${person.firstName} ${person.lastName} (${person.username})`);
    expect(notice).toContain(location.legalName);
    const consoleLink = /Open Staff accounts: (\S+)/.exec(notice)?.[1];
    expect(consoleLink).toBe(`${suite.url}/admin`);
    await page.goto(consoleLink!);
    await page.waitForURL('**/login?next=%2Fadmin');
    await submitPassword(page, ADMIN);
    await verifyTotp(page, ADMIN_SECRET);
    await page.waitForURL('**/admin');
    const pending = page.getByRole('region', { name: 'Access requests' });
    const row = pending.getByRole('row', { name: escaped(person.username) });
    await row.waitFor();
    expect(await row.innerText()).toContain(person.email);

    // Approves as a user of the location.
    await row.getByRole('button', { name: /^Approve / }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve access' });
    await dialog.getByRole('radio', { name: /^User/ }).check();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByTestId('requests-status')
      .getByText(/^Approved: /)
      .waitFor();
    await logOut(page);

    // The end user is emailed, logs in and has the location on My account.
    const approved = await readEmail(suite.url, { to: person.email, subject: /was approved/, since });
    expect(approved).toContain(location.legalName);
    await loginWithTotp(page, person.username, key, person.password);
    await page.goto('/account');
    const locations = page.getByRole('region', { name: 'Provider locations and roles' });
    await locations.getByRole('row', { name: escaped(location.legalName) }).waitFor();
    await expectNoAxeViolations(page, 'My account with the approved location');
    await screenshot(page, 'journey-account-location-1440');

    // A DDE access request for that location, every field of the form filled in, to its success message.
    await gotoHydrated(page, '/dde-access');
    const form = page.getByRole('form', { name: 'Request DDE access' });
    const locationChoice = form.getByRole('radio', { name: escaped(`${location.legalName} — NPI ${location.npi}`) });
    await locationChoice.check();
    await page.getByTestId('dde-enrollment').waitFor();
    await waitForSettled(page);
    await form.getByRole('radio', { name: 'New DDE access' }).check();
    await form.getByRole('combobox', { name: /DDE access type/i }).selectOption('inquiry-and-claims');
    await form.getByRole('textbox', { name: /Submitter ID/i }).fill('HARPER2026');
    await form.getByRole('textbox', { name: /Network service vendor/i }).fill('Prairie Claims Network');
    await form.getByRole('textbox', { name: /Contact phone/i }).fill(person.phone);
    await form.getByRole('textbox', { name: /Comments/i }).fill('Harper enters our claims from next week.');
    await expectNoAxeViolations(page, 'DDE access form filled in');
    await form.getByRole('button', { name: 'Send request' }).click();
    await page.getByRole('heading', { name: 'Request sent' }).waitFor();
    const reference = (await page.getByTestId('dde-reference').innerText()).trim();
    expect(reference).toMatch(/^DDE-\d{4}-\d+$/);
    await screenshot(page, 'journey-dde-sent-1440');
    const ddeMail = await readEmail(suite.url, {
      to: person.email,
      subject: new RegExp(`DDE access request ${reference} received`),
      since,
    });
    expect(ddeMail).toContain(reference);

    // A further location, asked for from the portal home (a billing service works for many offices), then withdrawn.
    await gotoHydrated(page, '/portal');
    await page.getByRole('heading', { level: 1, name: 'Portal home' }).waitFor();
    const askForm = page.getByRole('form', { name: 'Request access to another location' });
    await fillLocationIdentifiers(page, { ...further, region: regionOf(further) });
    await askForm.getByRole('button', { name: 'Request access' }).click();
    await askForm.getByText(`Your request for ${further.legalName} is sent to its administrator.`).waitFor();
    const furtherRequest = ownRequests.getByTestId('access-request').filter({ hasText: further.legalName });
    await expect.poll(() => furtherRequest.getByTestId('access-request-status').innerText()).toMatch(/Pending/);
    await expectNoAxeViolations(page, 'portal home with an approved and a pending request');
    await screenshot(page, 'journey-portal-home-requests-1440');
    await furtherRequest.getByRole('button', { name: /Withdraw/ }).click();
    await page
      .getByRole('dialog', { name: 'Withdraw this access request?' })
      .getByRole('button', { name: 'Withdraw request' })
      .click();
    await expect.poll(() => furtherRequest.getByTestId('access-request-status').innerText()).toBe('Status: Withdrawn');
    await logOut(page);
  }, 300_000);
});
