import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { typeDate } from './login';
import { readEmail } from './mail';

/**
 * The registration forms the browser tests fill (docs/requirements/portal.md#administrator-self-registration,
 * docs/requirements/staff-accounts.md#end-users): `/register`'s administrator step and `/register/user`'s account step
 * ask the same fields; both wizards name a provider location by NPI, PTAN and TIN.
 */

/** The person a test registers: every field of the account step. */
export interface NewPerson {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** Date of birth as typed into the date field: MMDDYYYY. */
  dobDigits: string;
  username: string;
  password: string;
  /** Answers are `<answerPrefix> 1`, `… 2`, `… 3`. */
  answerPrefix: string;
}

/** A new person with made-up details: the email is `first.last@office.example`; the password meets the policy. */
export function newPerson(firstName: string, lastName: string, username: string): NewPerson {
  return {
    firstName,
    lastName,
    email: `${firstName}.${lastName}@office.example`.toLowerCase(),
    phone: '515-555-0188',
    dobDigits: '11051988',
    username,
    password: 'Maple canoe glides past four reeds',
    answerPrefix: 'my answer',
  };
}

/** A provider location's identifiers, as the README's demo table gives them. */
export interface LocationIdentifiers {
  npi: string;
  ptan: string;
  tin: string;
  /** Jurisdiction and line of business (`J5A`): chosen too when given, else the field keeps the visitor's choice. */
  region?: string;
}

/** Types the NPI, PTAN and TIN (and chooses the region, when given) into the provider location fields on screen. */
export async function fillLocationIdentifiers(page: Page, location: LocationIdentifiers) {
  if (location.region) await page.getByLabel('Jurisdiction and line of business').selectOption(location.region);
  await page.getByRole('textbox', { name: /NPI/ }).fill(location.npi);
  await page.getByRole('textbox', { name: /PTAN/ }).fill(location.ptan);
  await page.getByRole('textbox', { name: /TIN/ }).fill(location.tin);
}

/**
 * Fills the account step (names, email twice, phone, date of birth, username, password twice, three security
 * questions) and waits until the password checklist says every rule is met. The test submits it.
 */
export async function fillAccountDetails(page: Page, person: NewPerson) {
  await page.getByRole('textbox', { name: 'First name' }).fill(person.firstName);
  await page.getByRole('textbox', { name: 'Last name' }).fill(person.lastName);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(person.email);
  await page.getByRole('textbox', { name: 'Email again' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Phone' }).fill(person.phone);
  await typeDate(page, /date of birth/i, person.dobDigits);
  await page.getByRole('textbox', { name: 'Username' }).fill(person.username);
  // Password inputs have no textbox role, and "Show password" shares the label's words: found by id.
  await page.locator('#register-password').fill(person.password);
  await page.locator('#register-password-confirmation').fill(person.password);
  // The checklist's status is announced once typing pauses (about a second).
  await expect
    .poll(() => page.getByTestId('password-checklist-status').textContent(), { timeout: 10_000 })
    .toBe('The password meets every rule.');
  for (const index of [0, 1, 2]) {
    const row = page.getByRole('group', { name: `Security question ${index + 1}` });
    await row.getByRole('combobox').selectOption({ index: index + 1 });
    await row.getByRole('textbox', { name: 'Answer' }).fill(`${person.answerPrefix} ${index + 1}`);
  }
}

/**
 * Reads the verification email to `email` queued since `since` from the mail viewer, opens its link in `page` and
 * waits for the confirmation: the account is active.
 */
export async function confirmEmailFromViewer(page: Page, portalUrl: string, email: string, since: Date) {
  const mail = await readEmail(portalUrl, { to: email, subject: /Confirm your email address/, since });
  const link = /https?:\/\/[^\s<"]+\/verify-email#token=[^\s<"&]+/.exec(mail)?.[0];
  expect(link, 'the verification link in the email').toBeDefined();
  await page.goto(link!);
  await page.getByTestId('verify-email-success').waitFor();
  // The token left the address bar.
  expect(new URL(page.url()).hash).toBe('');
}
