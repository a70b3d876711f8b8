import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../server/src/db/client';
import { accessRequests, providerLocations, userLocations, users } from '../server/src/db/schema';
// The server tests' factories, file by file (their index also loads the server suite's vitest set-up).
import { createLocation } from '../server/test/factories/locations';
import { createPerson } from '../server/test/factories/people';
import { link } from '../server/test/factories/links';
import { requestAccess } from '../server/test/factories/requests';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, screenshot, waitForSettled } from './support/browser';
import { loginEnrolling, loginWithTotp, logOut } from './support/login';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';

/**
 * The administrator's console (docs/requirements/staff-accounts.md#the-administrators-console) against a portal of
 * this file's own with the mail viewer: `demo.admin.j5` approves, keyboard only, the pending request of
 * `demo.user.j8` for the J5 location (who then has it on My account and in DDE access), denies the request of
 * `demo.admin.j8` with a reason, and makes `demo.user.j5` an administrator, then revokes it. Both requests are made
 * in the data before the portal starts (the end-user registration is tested on its own).
 */
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
const APPROVED = 'demo.user.j8';
const DENIED = 'demo.admin.j8';
const DENY_REASON = 'We do not work with this billing office.';
const FULL_CLINIC = 'Fullhouse Clinic';
const CANDIDATE = 'never.logged.in';
const SHARED = 'shared.elsewhere';
// A refused call (a re-authentication asked for) answers 4xx, which Chromium reports as a console error of the page.
const allowConsoleErrors = [/status of 40[0-9]/];

describe('the administrator console', () => {
  let locationName = '';
  const suite = portalSuite({
    env: { MAIL_VIEWER: 'true', LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    prepareData: async (dataDir) => {
      const database = await openPglite(join(dataDir, 'pgdata'));
      const { db } = database;
      const [admin] = await db.select().from(users).where(eq(users.username, ADMIN));
      const [adminLink] = await db
        .select({ locationId: userLocations.locationId, legalName: providerLocations.legalName })
        .from(userLocations)
        .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
        .where(and(eq(userLocations.userId, admin!.id), eq(userLocations.role, 'administrator')))
        .orderBy(asc(providerLocations.npi))
        .limit(1);
      locationName = adminLink!.legalName;
      // Only this test's two requests wait, so the list empties after them: the demo's own requesters have withdrawn
      // theirs (withdrawn, not deleted, or the demo seeding at start would ask again).
      await db.update(accessRequests).set({ status: 'withdrawn' });
      for (const username of [APPROVED, DENIED]) {
        const [requester] = await db.select().from(users).where(eq(users.username, username));
        await requestAccess(db, requester!.id, adminLink!.locationId);
      }
      // A location of the administrator's that already has its 5 administrators, a person there who never logged in,
      // and a person there who also works for a location the administrator does not manage.
      const location = (legalName: string, npi: string) =>
        createLocation(db, { npi, ptan: `P${npi.slice(-6)}`, legalName, city: 'Des Moines', zip: '50309' });
      const full = await location(FULL_CLINIC, '1999999990');
      const other = await location('Elsewhere Clinic', '1999999982');
      const person = (username: string, firstName: string) => createPerson(db, { username, firstName });
      await link(db, admin!.id, full.id, 'administrator');
      for (let i = 1; i <= 4; i++) {
        const filler = await person(`full.admin.${i}`, `Filler${i}`);
        await link(db, filler.id, full.id, 'administrator');
      }
      const candidate = await person(CANDIDATE, 'Casey');
      await link(db, candidate.id, full.id, 'user');
      const shared = await person(SHARED, 'Shannon');
      await link(db, shared.id, full.id, 'user');
      await link(db, shared.id, other.id, 'user');
      await database.close();
    },
    pageDefaults: { allowConsoleErrors },
  });

  async function openConsole(page: Page) {
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Staff accounts' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { level: 1, name: 'Staff accounts' }).waitFor();
    await waitForSettled(page);
  }

  /** Presses Tab until `target` has the focus (keyboard only: no click reaches it). */
  async function tabTo(page: Page, target: Locator, limit = 80) {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      if (await target.evaluate((el) => el === document.activeElement)) return;
    }
    throw new Error(`Tab never reached ${String(target)}`);
  }

  it('approve keyboard only → the requester is emailed, has the location on My account and in DDE access; deny with a reason → emailed', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    const since = new Date();
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await openConsole(page);
    const requests = page.getByRole('region', { name: 'Access requests' });
    await requests.getByRole('row', { name: new RegExp(APPROVED) }).waitFor();
    await expectNoAxeViolations(page, 'console at 1440 px');
    await screenshot(page, 'admin-console-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 'console at 390 px');
    await screenshot(page, 'admin-console-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Keyboard only: Tab to the request's Approve, Enter; in the dialog the role (arrow keys), Tab to Approve, Enter.
    const approveRow = requests.getByRole('row', { name: new RegExp(APPROVED) });
    await tabTo(page, approveRow.getByRole('button', { name: /^Approve / }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Approve access' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('radio');
    await expectNoAxeViolations(page, 'approve dialog');
    await screenshot(page, 'admin-approve-dialog-1440');
    await tabTo(page, dialog.getByRole('button', { name: 'Approve' }), 5);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByTestId('requests-status')
      .getByText(/^Approved: /)
      .waitFor();
    await expect.poll(() => requests.getByRole('row', { name: new RegExp(APPROVED) }).count()).toBe(0);

    const approvedMail = await readEmail(suite.url, { to: `${APPROVED}@example.com`, subject: /approved/i, since });
    expect(approvedMail).toContain(locationName);

    // Deny with a reason.
    await requests
      .getByRole('row', { name: new RegExp(DENIED) })
      .getByRole('button', { name: /^Deny / })
      .click();
    const denyDialog = page.getByRole('dialog', { name: 'Deny access' });
    await denyDialog.getByRole('textbox', { name: 'Reason (optional)' }).fill(DENY_REASON);
    await expectNoAxeViolations(page, 'deny dialog');
    await screenshot(page, 'admin-deny-dialog-1440');
    await denyDialog.getByRole('button', { name: 'Deny' }).click();
    await page
      .getByTestId('requests-status')
      .getByText(/^Denied: /)
      .waitFor();
    await requests.getByTestId('requests-empty').waitFor();
    await expectNoAxeViolations(page, 'console with no requests');
    const deniedMail = await readEmail(suite.url, {
      to: `${DENIED}@example.com`,
      subject: /denied|not approved/i,
      since,
    });
    expect(deniedMail).toContain(DENY_REASON);
    await logOut(page);

    // The approved person logs in (first login: the authenticator is set up) and has the location.
    await loginEnrolling(page, APPROVED);
    await page.goto('/account');
    const locations = page.getByRole('region', { name: 'Provider locations and roles' });
    await locations.getByRole('row', { name: new RegExp(locationName) }).waitFor();
    await page.goto('/dde-access');
    await page.getByRole('radio', { name: new RegExp(locationName) }).waitFor();
    // Not an administrator anywhere: no console link.
    expect(
      await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Staff accounts' }).count(),
    ).toBe(0);
    // Two people's whole flows (the decisions, then a first login with MFA set-up): past 60 s on a loaded machine.
  }, 180_000);

  it('make administrator, then revoke it, each after a confirmation (axe on the dialogs)', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await openConsole(page);
    const people = page.getByRole('region', { name: 'People of my locations' });
    await people.getByRole('searchbox', { name: 'Name, username or email' }).fill('demo.user.j5');
    await people.getByRole('button', { name: 'Search' }).click();
    const person = people.getByRole('listitem').filter({ hasText: 'demo.user.j5' });
    await person.getByRole('button', { name: 'Make administrator' }).click();
    const confirm = page.getByRole('dialog', { name: /^Make .* an administrator of / });
    await confirm.waitFor();
    await expectNoAxeViolations(page, 'make administrator dialog');
    await screenshot(page, 'admin-make-admin-dialog-1440');
    await confirm.getByRole('button', { name: 'Make administrator' }).click();
    await person
      .getByTestId('person-status')
      .getByText(/is now an administrator of/)
      .waitFor();
    await person.getByRole('cell', { name: 'Administrator', exact: true }).waitFor();
    await expectNoAxeViolations(page, 'people after the change');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, 'people at 390 px');
    await screenshot(page, 'admin-people-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'admin-people-1440');

    await person.getByRole('button', { name: 'Revoke administrator' }).click();
    const revoke = page.getByRole('dialog', { name: /^Revoke / });
    await revoke.getByRole('button', { name: 'Revoke administrator' }).click();
    await person
      .getByTestId('person-status')
      .getByText(/is no longer an administrator of/)
      .waitFor();
    await person.getByRole('cell', { name: 'User', exact: true }).waitFor();
  });

  it('offers only what is allowed, and shows a refusal next to the control, in view (390 and 1440 px, axe)', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await openConsole(page);
    await page.setViewportSize({ width: 390, height: 844 });
    const people = page.getByRole('region', { name: 'People of my locations' });
    const search = async (q: string) => {
      await people.getByRole('searchbox', { name: 'Name, username or email' }).fill(q);
      await people.getByRole('button', { name: 'Search' }).click();
      return people.getByRole('listitem').filter({ hasText: q });
    };

    // My own card: nothing to disable, revoke or remove.
    const mine = await search(ADMIN);
    await mine.getByText('This is your account.').waitFor();
    expect(await mine.getByRole('button').count()).toBe(0);

    // A person who also works elsewhere: only the location's actions.
    const shared = await search(SHARED);
    await shared.getByText(/also works for a provider location you do not manage/).waitFor();
    expect(await shared.getByRole('button', { name: 'Disable account' }).count()).toBe(0);
    expect(await shared.getByRole('button', { name: 'Remove from location' }).count()).toBe(1);
    await expectNoAxeViolations(page, 'person of another location too');
    await screenshot(page, 'admin-person-elsewhere-390');

    // Promoting someone who never logged in says what it means for the 5 places; at the limit the refusal shows on
    // the card, next to the button, in view.
    const candidate = await search(CANDIDATE);
    await candidate.getByRole('button', { name: 'Make administrator' }).click();
    const confirm = page.getByRole('dialog', { name: new RegExp(`an administrator of ${FULL_CLINIC}`) });
    await confirm.getByText(/has never logged in: they take one of the 5 administrator places/).waitFor();
    await expectNoAxeViolations(page, 'make administrator of someone who never logged in');
    await screenshot(page, 'admin-make-admin-never-logged-in-390');
    await confirm.getByRole('button', { name: 'Make administrator' }).click();
    const refusal = candidate.getByRole('alert');
    await refusal.getByText(/already has the most administrators allowed/).waitFor();
    await page.waitForFunction(
      (el) => {
        const box = el!.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      },
      await refusal.elementHandle(),
    );
    await expectNoAxeViolations(page, 'refusal on the card at 390 px');
    await screenshot(page, 'admin-refusal-on-card-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await refusal.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page, 'refusal on the card at 1440 px');
    await screenshot(page, 'admin-refusal-on-card-1440');
  });
});
