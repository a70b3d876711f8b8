import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, gotoHydrated, waitForSettled } from './support/browser';
import { PORTAL_REQUEST_HEADER, PORTAL_REQUEST_HEADER_VALUE } from '@portal/contracts/http-names';
import { loginEnrolling } from './support/login';
import { demoLocation } from './support/demo';
import { portalSuite } from './support/portal-suite';
import { addVirtualAuthenticator } from './support/webauthn';

/**
 * Every result where the eye is (issue 38 item 4) on the portal home and My account: the person scrolled down to a
 * control and used it; its refusal shows in the viewport (next to the control, or an alert scrolled into view), at a
 * phone's width and a desktop's, also below a long list (six access requests, five passkeys).
 */
const SEED_LOCATIONS = 30;
const allowConsoleErrors = [/status of 40[0-9]/];

/** Scrolls so the control is the last thing on the screen (a person who scrolled down just far enough), then uses it. */
async function clickAtScreenBottom(control: Locator) {
  await control.evaluate((element) => element.scrollIntoView({ block: 'end' }));
  await control.click();
}

/** The whole message lies inside the viewport. */
async function expectInViewport(page: Page, message: Locator, label: string) {
  await message.waitFor();
  await waitForSettled(page);
  const box = (await message.boundingBox())!;
  const viewport = page.viewportSize()!;
  const where = `${label}: message at y=${Math.round(box.y)}..${Math.round(box.y + box.height)}, viewport 0..${viewport.height}`;
  expect(box.y >= 0 && box.y + box.height <= viewport.height, where).toBe(true);
}

/** What the person sees at that moment (the viewport, not the full page). */
async function viewportShot(page: Page, name: string) {
  const dir = join(import.meta.dirname, '..', 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

const portalHeaders = { [PORTAL_REQUEST_HEADER]: PORTAL_REQUEST_HEADER_VALUE };

describe('results shown where the person is (portal home, My account)', () => {
  const portal = portalSuite({
    env: {
      SEED_LOCATIONS: String(SEED_LOCATIONS),
      LOGIN_ATTEMPTS_PER_MINUTE: '200',
    },
    pageDefaults: { allowConsoleErrors },
  });

  for (const [width, height, username, other] of [
    [390, 844, 'demo.user.j5', 'J8'],
    [1440, 900, 'demo.user.j8', 'J5'],
  ] as const) {
    it(`a refused withdrawal and a passkey added under a long list show in view (${width} px)`, async () => {
      const { context, page } = await portal.newPage({ viewport: { width, height } });
      const authenticator = await addVirtualAuthenticator(context, page);
      await loginEnrolling(page, username);

      // The portal home with six access requests; the last one is withdrawn elsewhere (another tab) meanwhile.
      const asked = [0, 1, 2, 3, 4, 5].map((index) => demoLocation(SEED_LOCATIONS, other, index));
      for (const location of asked) {
        const { npi, ptan, tin, jurisdiction, lineOfBusiness } = location;
        const res = await page.request.post('/api/access-requests', {
          headers: portalHeaders,
          data: { npi, ptan, tin, jurisdiction, lineOfBusiness },
        });
        expect(res.status(), await res.text()).toBeLessThan(300);
      }
      await gotoHydrated(page, '/portal');
      await page.getByRole('heading', { level: 1, name: 'Portal home' }).waitFor();
      const requests = page.getByTestId('access-request');
      await expect.poll(() => requests.count()).toBe(asked.length);
      await waitForSettled(page);
      const last = requests.last();
      const lastName = (await last.locator('p').first().innerText()).trim();
      const mine = (await (await page.request.get('/api/access-requests')).json()) as {
        data: { requests: { id: string; location: { legalName: string } }[] };
      };
      const lastId = mine.data.requests.find((r) => r.location.legalName === lastName)!.id;
      expect(
        (await page.request.post(`/api/access-requests/${lastId}/withdraw`, { headers: portalHeaders })).ok(),
      ).toBe(true);
      await clickAtScreenBottom(last.getByRole('button', { name: /Withdraw/ }));
      await page
        .getByRole('dialog', { name: 'Withdraw this access request?' })
        .getByRole('button', { name: 'Withdraw request' })
        .click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      const refusal = page.getByRole('region', { name: 'Access requests' }).getByRole('alert');
      await expectInViewport(page, refusal, `withdrawal refused (${width})`);
      await viewportShot(page, `message-in-view-portal-withdraw-${width}`);
      await expectNoAxeViolations(page, `portal home, withdrawal refused (${width})`);

      // My account with five passkeys: the sixth is added from the form under their list, and the result shows in view.
      await gotoHydrated(page, '/account');
      await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
      const passkeys = page.getByRole('region', { name: 'Passkeys', exact: true });
      // Each passkey on a device of its own (an authenticator refuses a second one for the same account).
      const addPasskey = async (name: string) => {
        await authenticator.replace();
        await passkeys.getByRole('textbox', { name: 'Passkey name' }).fill(name);
        await clickAtScreenBottom(passkeys.getByRole('button', { name: 'Add a passkey' }));
        return page.getByTestId('passkeys-status').getByText(`Passkey "${name}" added.`);
      };
      for (const n of [1, 2, 3, 4, 5]) await (await addPasskey(`Laptop ${n}`)).waitFor();
      await waitForSettled(page);
      await expectInViewport(page, await addPasskey('Phone'), `passkey added (${width})`);
      await viewportShot(page, `message-in-view-account-passkey-${width}`);
      await expectNoAxeViolations(page, `My account, passkey added (${width})`);
    }, 240_000);
  }
});
