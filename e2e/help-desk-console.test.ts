import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PORTAL_REQUEST_HEADER, PORTAL_REQUEST_HEADER_VALUE } from '@portal/contracts/http-names';
import { OPS_PAGE_PATHS, OPS_ROUTES, opsPath } from '@portal/contracts/ops';
import { openPglite } from '../server/src/db/client';
import { users } from '../server/src/db/schema';
// The server tests' factories, file by file (their index also loads the server suite's vitest set-up).
import { createLocation } from '../server/test/factories/locations';
import { createPerson } from '../server/test/factories/people';
import { link } from '../server/test/factories/links';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectInViewport, expectNoAxeViolations, gotoHydrated, screenshot } from './support/browser';
import { loginEnrolling, loginWithTotp } from './support/login';
import { readEmail } from './support/mail';
import { DEMO_DIRECTORY_PASSWORD } from '../server/test/support/directory';
import { consoleHydrated, opsDirectory, signInAtDirectory, signInToConsole } from './support/ops-directory';
import { portalSuite } from './support/portal-suite';

/**
 * The contractor's help-desk console (docs/requirements/help-desk.md) against a portal of this file's own whose
 * console signs in through a real OpenID provider (the demo directory) started by the test: who gets in, and the calls
 * the desk gets — locked out, lost phone, no verification email, a location left without an administrator.
 */
const HELP_DESK = 'helpdesk';
const SUPERVISOR = 'supervisor';
const NO_ROLE = 'norole';
const LOCKED = 'demo.locked';
const LOST_PHONE = 'demo.admin.j5';
const UNVERIFIED = 'never.verified';
const ORPHAN_NPI = '1999999974';
const ORPHAN_CLINIC = 'Orphan Family Clinic';
const ORPHAN_PERSON = 'orphan.staff';
const INACTIVE = 'demo.inactive';
// Refusals the tests cause on purpose (a 401 before signing in, a 403 for the help desk) reach the console as errors.
const allowConsoleErrors = [/status of 40[0-9]/];

/** Presses Tab until `target` has the focus (as someone on a keyboard moves through the page). */
async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

describe('the help-desk console', () => {
  const directory = opsDirectory();
  let orphanLocationId = '';
  const suite = portalSuite({
    env: () => ({ MAIL_VIEWER: 'true', LOGIN_ATTEMPTS_PER_MINUTE: '200', ...directory.env() }),
    pageDefaults: { allowConsoleErrors },
    prepareData: async (dataDir) => {
      const { db, close } = await openPglite(join(dataDir, 'pgdata'));
      const [template] = await db.select().from(users).where(eq(users.username, 'demo.user.j5'));
      // Registered, never verified: the verification email never came.
      await createPerson(db, {
        username: UNVERIFIED,
        firstName: 'Vera',
        lastName: 'Unverified',
        dob: '1985-05-05',
        passwordHash: template!.passwordHash,
        status: 'pending',
      });
      // A location whose only administrator left: one person with access, no administrator.
      const orphan = await createLocation(db, {
        npi: ORPHAN_NPI,
        ptan: 'P999974',
        legalName: ORPHAN_CLINIC,
        city: 'Des Moines',
        zip: '50309',
      });
      orphanLocationId = orphan.id;
      const staff = await createPerson(db, {
        username: ORPHAN_PERSON,
        firstName: 'Olive',
        lastName: 'Orphan',
        dob: '1979-09-09',
        passwordHash: template!.passwordHash,
      });
      await link(db, staff.id, orphan.id, 'user');
      await close();
    },
  });

  /** A console request from the page's browser (its cookies), as the console's own client sends it. */
  const consoleCall = (page: Page, method: 'GET' | 'POST', path: string, data?: unknown) =>
    page.request.fetch(`${suite.url}${path}`, {
      method,
      headers: { [PORTAL_REQUEST_HEADER]: PORTAL_REQUEST_HEADER_VALUE, 'content-type': 'application/json' },
      ...(data !== undefined ? { data: JSON.stringify(data) } : {}),
    });

  /** Finds a person by what the caller says and opens their page. */
  async function openPerson(page: Page, query: string, name: string) {
    await page.getByRole('searchbox', { name: 'Username, email, name, NPI or PTAN' }).fill(query);
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .getByRole('list', { name: /People/ })
      .getByRole('link', { name })
      .click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  }

  it('help-desk and supervisor operators sign in through the directory; a person without the role is refused', async () => {
    const { page } = await suite.newPage();
    await signInToConsole(page, HELP_DESK);
    await expect.poll(() => page.getByTestId('ops-operator').innerText()).toMatch(/Harper Desk\s*Help desk/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/ops');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect
      .poll(() => page.getByTestId('ops-signed-out').innerText())
      .toMatch(/You signed out of the help-desk console/);
    await page.getByRole('link', { name: 'Sign in with the contractor directory' }).waitFor();
    expect((await consoleCall(page, 'GET', OPS_ROUTES.session)).status()).toBe(401);

    const supervisor = await suite.newPage();
    // Signing in from a person's page comes back to it.
    const somewhere = opsPath(OPS_PAGE_PATHS.location, { locationId: orphanLocationId });
    await signInToConsole(supervisor.page, SUPERVISOR, somewhere);
    await expect
      .poll(() => supervisor.page.getByTestId('ops-operator').innerText())
      .toMatch(/Sam Supervisor\s*Supervisor/);
    await supervisor.page.getByRole('heading', { level: 1, name: ORPHAN_CLINIC }).waitFor();
    expect(new URL(supervisor.page.url()).pathname).toBe(somewhere);

    const refused = await suite.newPage();
    await refused.page.goto('/ops');
    await refused.page.getByRole('link', { name: 'Sign in with the contractor directory' }).click();
    await signInAtDirectory(refused.page, NO_ROLE);
    await expect
      .poll(() => refused.page.getByTestId('ops-sign-in-reason').innerText())
      .toMatch(/not in a help-desk or supervisor group/);
    expect(new URL(refused.page.url()).searchParams.get('signIn')).toBe('Ops_No_Role');
    expect(await refused.page.getByTestId('ops-operator').count()).toBe(0);
    expect((await consoleCall(refused.page, 'GET', OPS_ROUTES.session)).status()).toBe(401);
  }, 180_000);

  it('a provider session gets 404 on every /ops page and /api/ops route', async () => {
    const { page } = await suite.newPage();
    await loginWithTotp(page, LOST_PHONE, DEMO_TOTP_SECRETS[LOST_PHONE]!);
    const params = { userId: randomUUID(), locationId: randomUUID() };
    for (const path of Object.values(OPS_PAGE_PATHS)) {
      const response = await page.request.get(`${suite.url}${opsPath(path, params)}`);
      expect(response.status(), path).toBe(404);
    }
    const gets = new Set<string>([
      OPS_ROUTES.signIn,
      OPS_ROUTES.callback,
      OPS_ROUTES.session,
      OPS_ROUTES.search,
      OPS_ROUTES.person,
      OPS_ROUTES.location,
    ]);
    for (const path of Object.values(OPS_ROUTES)) {
      const response = await consoleCall(
        page,
        gets.has(path) ? 'GET' : 'POST',
        opsPath(path, params),
        gets.has(path) ? undefined : { reason: 'Provider trying the console' },
      );
      expect(response.status(), path).toBe(404);
    }
  });

  it('locked out: the help desk unlocks the account with a reason, and the person logs in', async () => {
    const { page } = await suite.newPage();
    await signInToConsole(page, HELP_DESK);
    await openPerson(page, LOCKED, 'Lee Locked');
    await expect.poll(() => page.getByTestId('ops-status-section').innerText()).toMatch(/Locked/);
    await page.getByRole('button', { name: 'Unlock' }).click();
    const dialog = page.getByRole('dialog', { name: "Unlock Lee Locked's account" });
    // The reason is required: the dialog says so and sends nothing.
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await dialog
      .getByTestId('form-error-summary')
      .getByText(/Give a reason/)
      .waitFor();
    await expectNoAxeViolations(page);
    await dialog
      .getByRole('textbox', { name: 'Reason' })
      .fill('Caller locked out after a password change; identity checked.');
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await expect
      .poll(() => page.getByTestId('ops-person-outcome').innerText())
      .toMatch(/Lee Locked's account is unlocked/);
    await expect.poll(() => page.getByRole('button', { name: 'Unlock' }).count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('ops-audit-section').innerText())
      .toMatch(/Caller locked out after a password change/);

    const person = await suite.newPage();
    await loginEnrolling(person.page, LOCKED);
  }, 180_000);

  it('lost phone: after two identity facts the help desk resets MFA, and the person enrols again at the next login', async () => {
    const { page } = await suite.newPage();
    await signInToConsole(page, HELP_DESK);
    await openPerson(page, LOST_PHONE, 'Avery Admin J5');
    await page.getByRole('button', { name: 'Reset two-step verification' }).click();
    const dialog = page.getByRole('dialog', { name: "Reset Avery Admin J5's two-step verification" });
    await dialog.getByRole('checkbox', { name: 'Date of birth on the account' }).check();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Lost phone; new one bought today.');
    await dialog.getByRole('button', { name: 'Reset two-step verification' }).click();
    // One fact is not enough.
    await dialog.getByText('Tick at least two different facts you checked with the caller.').first().waitFor();
    await dialog.getByRole('checkbox', { name: /NPI and PTAN/ }).check();
    await screenshot(page, 'ops-reset-mfa-dialog-1280');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Reset two-step verification' }).click();
    await expect
      .poll(() => page.getByTestId('ops-person-outcome').innerText())
      .toMatch(/two-step verification was reset/);
    await expect.poll(() => page.getByTestId('ops-mfa-section').innerText()).toMatch(/Authenticator app\s*Not set up/);

    // The next login asks for a new authenticator (the old secret no longer counts), and the person enrols again.
    const person = await suite.newPage();
    await loginEnrolling(person.page, LOST_PHONE);
  }, 180_000);

  it('no verification email: the help desk sends a new one', async () => {
    const { page } = await suite.newPage();
    await signInToConsole(page, HELP_DESK);
    await openPerson(page, UNVERIFIED, 'Vera Unverified');
    await expect
      .poll(() => page.getByTestId('ops-status-section').innerText())
      .toMatch(/email address was never verified/);
    // The full address only on request.
    expect(await page.getByTestId('ops-email').innerText()).not.toBe(`${UNVERIFIED}@example.com`);
    await page.getByRole('button', { name: 'Show the full email address' }).click();
    await expect.poll(() => page.getByTestId('ops-email').innerText()).toBe(`${UNVERIFIED}@example.com`);
    const since = new Date();
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Vera Unverified a new verification email' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Caller says the first email never arrived.');
    await dialog.getByRole('button', { name: 'Resend verification email' }).click();
    await expect
      .poll(() => page.getByTestId('ops-person-outcome').innerText())
      .toMatch(/verification email is on its way/);
    const mail = await readEmail(suite.url, {
      to: `${UNVERIFIED}@example.com`,
      subject: /Confirm your email address/,
      since,
    });
    expect(mail).toMatch(/verify-email#token=/);
  }, 180_000);

  it('a location without an administrator: the help desk cannot restore one, the supervisor does', async () => {
    const locationPath = opsPath(OPS_PAGE_PATHS.location, { locationId: orphanLocationId });
    const desk = await suite.newPage();
    await signInToConsole(desk.page, HELP_DESK);
    await desk.page.getByRole('searchbox', { name: 'Username, email, name, NPI or PTAN' }).fill(ORPHAN_NPI);
    await desk.page.getByRole('button', { name: 'Search' }).click();
    await desk.page
      .getByRole('list', { name: /Provider locations/ })
      .getByRole('link', { name: ORPHAN_CLINIC })
      .click();
    await desk.page.getByRole('heading', { level: 1, name: ORPHAN_CLINIC }).waitFor();
    expect(await desk.page.getByText('No working administrator').count()).toBe(1);
    expect(await desk.page.getByRole('button', { name: 'Restore an administrator' }).count()).toBe(0);
    await desk.page.getByTestId('ops-restore-supervisor-only').waitFor();
    const [orphan] = await (async () => {
      const response = await consoleCall(
        desk.page,
        'GET',
        opsPath(OPS_ROUTES.location, { locationId: orphanLocationId }),
      );
      return [(await response.json()) as { data: { people: { userId: string }[] } }];
    })();
    const refused = await consoleCall(
      desk.page,
      'POST',
      opsPath(OPS_ROUTES.restoreAdministrator, { locationId: orphanLocationId }),
      { reason: 'Trying as the help desk', userId: orphan.data.people[0]!.userId },
    );
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { errorMessage: string }).errorMessage).toBe('Ops_Role_Required');

    const { page } = await suite.newPage();
    await signInToConsole(page, SUPERVISOR, locationPath);
    await page.getByRole('heading', { level: 1, name: ORPHAN_CLINIC }).waitFor();
    await page.getByRole('button', { name: 'Restore an administrator' }).click();
    const dialog = page.getByRole('dialog', { name: `Restore an administrator to ${ORPHAN_CLINIC}` });
    await dialog.getByRole('radio', { name: `Olive Orphan (${ORPHAN_PERSON})` }).check();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Office manager called: their administrator retired.');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Restore administrator' }).click();
    await expect.poll(() => page.getByTestId('ops-location-outcome').innerText()).toMatch(/is now an administrator/);
    await page.getByText('Has a working administrator', { exact: true }).waitFor();
    await expect
      .poll(() => page.getByRole('table', { name: 'Administrators' }).innerText())
      .toMatch(new RegExp(`Olive Orphan\\s*${ORPHAN_PERSON.replace('.', '\\.')}`));
  }, 180_000);

  it('keyboard only: a supervisor signs in, finds a person and enables their account', async () => {
    const { page } = await suite.newPage();
    await page.goto('/ops');
    await tabTo(page, page.getByRole('link', { name: 'Sign in with the contractor directory' }));
    await page.keyboard.press('Enter');
    // The directory's sign-in page puts the focus in its username box.
    await page.getByLabel('Username').waitFor();
    await page.keyboard.type(SUPERVISOR);
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_DIRECTORY_PASSWORD);
    const hydrated = consoleHydrated(page);
    await page.keyboard.press('Enter');
    await page.getByTestId('ops-operator').waitFor();
    await hydrated;

    await tabTo(page, page.getByRole('searchbox', { name: 'Username, email, name, NPI or PTAN' }));
    await page.keyboard.type(INACTIVE);
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('link', { name: 'Ira Inactive' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Ira Inactive' }).waitFor();

    await tabTo(page, page.getByRole('button', { name: 'Enable account' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: "Enable Ira Inactive's account" });
    const reason = dialog.getByRole('textbox', { name: 'Reason' });
    // The dialog opens on its reason box, and Escape closes it, giving the focus back to the button.
    await expect.poll(() => reason.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect
      .poll(() =>
        page.getByRole('button', { name: 'Enable account' }).evaluate((element) => element === document.activeElement),
      )
      .toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => reason.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('Back from leave; the office manager asked.');
    // Tab stays inside the dialog: from the reason to Cancel, then the action.
    await page.keyboard.press('Tab');
    await expect
      .poll(() => dialog.getByRole('button', { name: 'Cancel' }).evaluate((e) => e === document.activeElement))
      .toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // The result is announced beside the actions, and takes the focus (the button it came from is gone).
    const outcome = page.getByTestId('ops-person-outcome');
    await expect.poll(() => outcome.innerText()).toMatch(/Ira Inactive's account is enabled again/);
    await expect.poll(() => outcome.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Disable account' }).count()).toBe(1);
  }, 180_000);

  it('looks right at 1440 px (the desk) and 390 px (a phone)', async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      const { page } = await suite.newPage({ viewport: { width, height } });
      await page.goto('/ops');
      await page.getByRole('link', { name: 'Sign in with the contractor directory' }).waitFor();
      await screenshot(page, `ops-sign-in-${width}`);
      await signInToConsole(page, SUPERVISOR);
      await page.getByRole('searchbox', { name: 'Username, email, name, NPI or PTAN' }).fill('Jordan');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('list', { name: /People/ }).waitFor();
      await screenshot(page, `ops-search-${width}`);
      await page
        .getByRole('list', { name: /People/ })
        .getByRole('link', { name: 'Jordan User J5' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Jordan User J5' }).waitFor();
      await screenshot(page, `ops-person-${width}`);
      await expectNoAxeViolations(page);
      await page.goto(opsPath(OPS_PAGE_PATHS.location, { locationId: orphanLocationId }));
      await page.getByRole('heading', { level: 1, name: ORPHAN_CLINIC }).waitFor();
      await screenshot(page, `ops-location-${width}`);
      // Nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  }, 180_000);

  it('a refusal shows in the dialog and a result beside the actions, in view, at 390 and 1440 px', async () => {
    const { page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await signInToConsole(page, SUPERVISOR);
    for (const [width, height] of [
      [390, 844],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      // The J5 location's only working administrator: disabling them is refused.
      await gotoHydrated(page, OPS_PAGE_PATHS.console);
      await openPerson(page, LOST_PHONE, 'Avery Admin J5');
      await page.getByRole('button', { name: 'Disable account' }).click();
      const dialog = page.getByRole('dialog', { name: "Disable Avery Admin J5's account" });
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('Trying to disable the last administrator.');
      await dialog.getByRole('button', { name: 'Disable account' }).click();
      const refusal = dialog.getByTestId('form-error-summary');
      await refusal.waitFor();
      await expectInViewport(refusal);
      await screenshot(page, `ops-refusal-${width}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // A result: end Jordan's sessions or, with none, disable and enable; the outcome is beside the actions, in view.
      await gotoHydrated(page, OPS_PAGE_PATHS.console);
      await openPerson(page, 'demo.user.j5', 'Jordan User J5');
      const label = width === 390 ? 'Disable account' : 'Enable account';
      await page.getByRole('button', { name: label }).click();
      const action = page.getByRole('dialog', { name: new RegExp(`^${label.split(' ')[0]} Jordan User J5`) });
      await action.getByRole('textbox', { name: 'Reason' }).fill('The office manager asked on the phone.');
      await action.getByRole('button', { name: label }).click();
      const outcome = page.getByTestId('ops-person-outcome').locator('.MuiAlert-root');
      await outcome.waitFor();
      await expectInViewport(outcome);
      await screenshot(page, `ops-outcome-${width}`, { fullPage: false });
    }
  }, 180_000);

  it('the keyboard follows the reading order: the details before the Actions at 1440 px, after them at 390 px', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await signInToConsole(page, SUPERVISOR);
    /** Which of the two the Tab key reaches first from the page's "Find a person" link. */
    const firstReached = async () => {
      await page.getByRole('main').getByRole('link', { name: 'Find a person' }).focus();
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const name = await page.evaluate(() => {
          const element = document.activeElement;
          return (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim();
        });
        if (name === 'Show the full email address') return 'details';
        if (/^(Disable account|Enable account)$/.test(name)) return 'actions';
      }
      return 'neither';
    };
    for (const [width, height, expected] of [
      [1440, 900, 'details'],
      [390, 844, 'actions'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await gotoHydrated(page, OPS_PAGE_PATHS.console);
      await openPerson(page, 'demo.user.j5', 'Jordan User J5');
      expect(await firstReached(), `at ${width} px`).toBe(expected);
    }
  }, 180_000);
});
