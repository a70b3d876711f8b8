import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { openPglite } from '../server/src/db/client';
import { accessRequests, users } from '../server/src/db/schema';
// The server tests' factories, file by file (their index also loads the server suite's vitest set-up).
import { createLocation } from '../server/test/factories/locations';
import { link } from '../server/test/factories/links';
import { createPerson } from '../server/test/factories/people';
import { requestAccess } from '../server/test/factories/requests';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectInViewport, expectNoAxeViolations, gotoHydrated, screenshot, waitForSettled } from './support/browser';
import { loginWithTotp } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * Issue 38 item 4 in the administrator's console: every result and refusal shows next to the control the person used
 * (or in an announced alert), in view, at 390 px (a phone) and 1440 px (a desk). A location of `demo.admin.j5`'s
 * that already has its 5 administrators, a pending request to it and a person there who never logged in make the
 * refusals happen; another tab withdrawing an invitation first makes the withdrawal refused.
 */
const ADMIN = 'demo.admin.j5';
const ADMIN_SECRET = DEMO_TOTP_SECRETS[ADMIN]!;
const CROWDED = 'Crowded Clinic';
const CROWDED_NPI = '1999999966';
const REQUESTER = 'crowd.requester';
const CANDIDATE = 'crowd.candidate';
const WIDTHS = [
  [390, 844],
  [1440, 900],
] as const;
// A refusal answers 4xx, which Chromium reports as a console error of the page.
const allowConsoleErrors = [/status of 40[0-9]/];

describe('the administrator console shows each result and refusal where the eye is', () => {
  const suite = portalSuite({
    env: { MAIL_VIEWER: 'true', LOGIN_ATTEMPTS_PER_MINUTE: '200' },
    pageDefaults: { allowConsoleErrors },
    prepareData: async (dataDir) => {
      const database = await openPglite(join(dataDir, 'pgdata'));
      const { db } = database;
      const [admin] = await db.select().from(users).where(eq(users.username, ADMIN));
      // Only this file's request waits (withdrawn, not deleted, or the demo seeding at start would ask again).
      await db.update(accessRequests).set({ status: 'withdrawn' });
      const crowded = await createLocation(db, {
        npi: CROWDED_NPI,
        ptan: 'P999966',
        legalName: CROWDED,
        city: 'Des Moines',
        zip: '50309',
      });
      const person = (username: string, firstName: string) =>
        createPerson(db, { username, firstName, lastName: 'Crowd' });
      await link(db, admin!.id, crowded.id, 'administrator');
      for (let i = 1; i <= 4; i++) {
        const filler = await person(`crowd.admin.${i}`, `Filler${i}`);
        await link(db, filler.id, crowded.id, 'administrator');
      }
      const candidate = await person(CANDIDATE, 'Casey');
      await link(db, candidate.id, crowded.id, 'user');
      const requester = await person(REQUESTER, 'Robin');
      await requestAccess(db, requester.id, crowded.id);
      await database.close();
    },
  });

  async function openConsole(page: Page) {
    await loginWithTotp(page, ADMIN, ADMIN_SECRET);
    await gotoHydrated(page, '/admin');
    await page.getByRole('heading', { level: 1, name: 'Staff accounts' }).waitFor();
    await waitForSettled(page);
  }

  it('access requests: the 5-administrator refusal in the dialog, the approval next to the list (390 and 1440 px)', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await openConsole(page);
    const requests = page.getByRole('region', { name: 'Access requests' });
    const row = requests.getByRole('row', { name: new RegExp(REQUESTER.replace('.', '\\.')) });
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      await row.getByRole('button', { name: /^Approve / }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve access' });
      await dialog.getByRole('radio', { name: /^Administrator/ }).check();
      await dialog.getByRole('button', { name: 'Approve' }).click();
      const refusal = dialog.getByRole('alert');
      await refusal.getByText(/most administrators allowed/).waitFor();
      await expectInViewport(refusal);
      await expectNoAxeViolations(page, `approval refused at ${width} px`);
      await screenshot(page, `console-approve-refused-${width}`, { fullPage: false });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await row.getByRole('button', { name: /^Approve / }).click();
    await page.getByRole('dialog', { name: 'Approve access' }).getByRole('button', { name: 'Approve' }).click();
    const status = page.getByTestId('requests-status').getByText(/^Approved: /);
    await status.waitFor();
    await expectInViewport(status);
    await screenshot(page, 'console-approved-390', { fullPage: false });
  });

  it('people: the 5-administrator refusal shows on the card, in view, at 1440 and 390 px', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1440, height: 900 } });
    await openConsole(page);
    const people = page.getByRole('region', { name: 'People of my locations' });
    await people.getByRole('searchbox', { name: 'Name, username or email' }).fill(CANDIDATE);
    await people.getByRole('button', { name: 'Search' }).click();
    const card = people.getByRole('listitem').filter({ hasText: CANDIDATE });
    for (const [width, height] of [...WIDTHS].reverse()) {
      await page.setViewportSize({ width, height });
      await card.getByRole('button', { name: 'Make administrator' }).click();
      const confirm = page.getByRole('dialog', { name: new RegExp(`an administrator of ${CROWDED}`) });
      await confirm.getByText(/has never logged in: they take one of the 5 administrator places/).waitFor();
      await confirm.getByRole('button', { name: 'Make administrator' }).click();
      await confirm.waitFor({ state: 'detached' });
      const refusal = card.getByRole('alert');
      await refusal.getByText(/most administrators allowed/).waitFor();
      await expectInViewport(refusal);
      await screenshot(page, `console-make-admin-refused-${width}`, { fullPage: false });
    }
  });

  it('invitations: "we emailed" next to the button, and a refused withdrawal as an alert in its dialog (390 and 1440 px)', async () => {
    const { page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await openConsole(page);
    const section = page.getByRole('region', { name: 'Invitations' });
    for (const [width, height] of WIDTHS) {
      await page.setViewportSize({ width, height });
      // Its own address each attempt: a retry must not meet the invitation a failed attempt left open.
      const email = `crowd.invitee.${width}.${Date.now()}@example.com`;
      await section.getByRole('button', { name: 'Invite a person' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a person' });
      await dialog.getByRole('textbox', { name: 'Their email address' }).fill(email);
      await dialog
        .getByRole('combobox', { name: 'Location' })
        .selectOption({ label: `${CROWDED} (NPI ${CROWDED_NPI})` });
      await dialog.getByRole('button', { name: 'Send the invitation' }).click();
      await dialog.waitFor({ state: 'detached' });
      const sent = page.getByTestId('invitations-status').getByText(`We emailed an invitation to ${email}`);
      await sent.waitFor();
      await expectInViewport(sent);
      await screenshot(page, `console-invitation-sent-${width}`, { fullPage: false });

      // Another tab withdraws it first; this tab's list still offers Withdraw, and the refusal says why, in view.
      const withdraw = (p: Page) =>
        p
          .getByRole('region', { name: 'Invitations' })
          .getByRole('button', { name: `Withdraw the invitation to ${email}` });
      const other = await page.context().newPage();
      // Hydrated before the click: a server-drawn button does nothing until then.
      await gotoHydrated(other, '/admin');
      await other.getByRole('heading', { level: 1, name: 'Staff accounts' }).waitFor();
      await waitForSettled(other);
      await withdraw(other).click();
      await other
        .getByRole('dialog', { name: 'Withdraw the invitation?' })
        .getByRole('button', { name: 'Withdraw' })
        .click();
      // Its own result, not the button's going: while the dialog is open the list is hidden from the accessibility
      // tree, so the button "goes" before the call has even been sent.
      await other.getByTestId('invitations-status').getByText(`The invitation to ${email} was withdrawn`).waitFor();
      await other.close();

      await withdraw(page).click();
      const confirm = page.getByRole('dialog', { name: 'Withdraw the invitation?' });
      await confirm.getByRole('button', { name: 'Withdraw' }).click();
      const refusal = confirm.getByRole('alert');
      await refusal.waitFor();
      await expectInViewport(refusal);
      await expectNoAxeViolations(page, `withdrawal refused at ${width} px`);
      await screenshot(page, `console-withdraw-refused-${width}`, { fullPage: false });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
    }
  });
});
