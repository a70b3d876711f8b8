import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, screenshot, waitForSettled } from './support/browser';
import { demoLocation } from './support/demo';
import { readEmail } from './support/mail';
import { portalSuite } from './support/portal-suite';

/**
 * Find my administrator is no dead end (issue 22, item 4; docs/requirements/portal.md#find-my-administrator): the
 * visitor asks the location's administrator to contact them, by keyboard alone, and the administrator gets the
 * request by email; the administrator's address never reaches the page or any answer the browser receives.
 */
const SEED_LOCATIONS = 30;
const ADMIN_EMAIL = 'demo.admin.j5@example.com';
const allowConsoleErrors = [/status of 4\d\d/];

/** The first demo location of J5 (by NPI, then PTAN), where demo.admin.j5 is the administrator. */
const firstJ5Location = () => demoLocation(SEED_LOCATIONS);

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return `${el?.tagName} ${el?.getAttribute('id') ?? ''} ${el?.textContent?.trim().slice(0, 60) ?? ''}`;
  });

async function lookUp(page: Page) {
  const location = firstJ5Location();
  await page.goto('/find-admin');
  await page.getByRole('textbox', { name: /NPI/ }).fill(location.npi);
  await page.getByRole('textbox', { name: /PTAN/ }).fill(location.ptan);
  await page.getByRole('textbox', { name: /TIN/ }).fill(location.tin);
  await page.getByRole('button', { name: 'Find administrator' }).click();
  await page.getByRole('heading', { name: "This location's administrator" }).waitFor();
}

describe('find my administrator: ask the administrator to contact me', () => {
  const portal = portalSuite({
    env: { MAIL_VIEWER: 'true', SEED_LOCATIONS: String(SEED_LOCATIONS) },
    pageDefaults: { allowConsoleErrors, viewport: { width: 1440, height: 900 } },
  });

  it('by keyboard alone: the form opens, errors show next to the fields, the request reaches the administrator', async () => {
    const { context, page } = await portal.newPage();
    const answers: string[] = [];
    page.on('response', async (res) => {
      if (res.url().includes('/api/')) answers.push(await res.text().catch(() => ''));
    });
    await lookUp(page);
    // Focus is on the result's heading; the next Tab reaches the way on.
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^BUTTON .*Ask this administrator to contact me/);
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: 'Ask this administrator to contact me' });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);

    // An empty send: the errors sit next to their fields (and in the summary); nothing is sent.
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^BUTTON .*Send my request/);
    await page.keyboard.press('Enter');
    await page.getByTestId('form-error-summary').waitFor();
    const name = page.getByRole('textbox', { name: /Your name/ });
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const described = await name.getAttribute('aria-describedby');
    expect(await page.locator(`#${described}`).innerText()).toMatch(/Enter your name/);
    await expectNoAxeViolations(page, 'contact form with errors');

    // Filled in by keyboard: Tab from the name field through the others.
    await name.focus();
    await page.keyboard.type('Sam Office');
    await page.keyboard.press('Tab');
    await page.keyboard.type('sam.office@clinic.example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('410 555 0199');
    await page.keyboard.press('Tab');
    const message = 'Please add me to the location: I joined the billing team on Monday.';
    await page.keyboard.type(message);
    await expect
      .poll(() => page.getByTestId('find-admin-contact-message-counter').innerText())
      .toBe(`${500 - message.length} characters left (up to 500)`);
    await page.keyboard.press('Tab');
    const since = new Date();
    await page.keyboard.press('Enter');
    const sent = page.getByRole('heading', { name: 'Your request was sent' });
    await sent.waitFor();
    await expect.poll(() => sent.evaluate((el) => el === document.activeElement)).toBe(true);
    await waitForSettled(page);

    const email = await readEmail(portal.url, { to: ADMIN_EMAIL, subject: /asks you to contact them/, since });
    expect(email).toContain('Name: Sam Office');
    expect(email).toContain('Email: sam.office@clinic.example.com');
    expect(email).toContain('Phone: 410-555-0199');
    expect(email).toContain(message);
    // The visitor never saw the address: not on the page, not in any answer.
    expect(await page.content()).not.toContain(ADMIN_EMAIL);
    for (const answer of answers) expect(answer).not.toContain(ADMIN_EMAIL);
    await context.close();
  });

  it('the contact form at 390 px and 1440 px (axe on each), with screenshots', async () => {
    for (const [width, height] of [
      [390, 844],
      [1440, 900],
    ] as const) {
      const { context, page } = await portal.newPage({ viewport: { width, height } });
      await lookUp(page);
      await page.getByRole('button', { name: 'Ask this administrator to contact me' }).click();
      await page.getByRole('textbox', { name: /Message/ }).fill('Please call me about access for our new biller.');
      await waitForSettled(page);
      await expectNoAxeViolations(page, `contact form at ${width}`);
      await screenshot(page, `find-admin-contact-${width}`);
      await context.close();
    }
  });
});
