import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { SECURITY_QUESTIONS } from '../../../testing/content-handlers';
import type { renderApp } from '../../../testing/render-app';

export type User = ReturnType<typeof renderApp>['user'];

export const PASSWORD = 'violet lantern orbit tea';

/** The text or password input labelled `label` (the proof choices' radio labels name the same things). */
export function field(label: RegExp | string): HTMLElement {
  const inputs = screen.getAllByLabelText(label).filter((element) => element.getAttribute('type') !== 'radio');
  expect(inputs).toHaveLength(1);
  return inputs[0]!;
}

/** Types like a paste (one input event): user-event's key-by-key typing is slow in jsdom. */
export async function fill(user: User, label: RegExp | string, value: string) {
  const input = field(label);
  await user.clear(input);
  await user.click(input);
  await user.paste(value);
}

/** Fills the account step of either wizard (the administrator's or a user's) for Pat Rivera. */
export async function fillAccount(user: User, { dob = true } = {}) {
  await fill(user, 'First name *', 'Pat');
  await fill(user, 'Last name *', 'Rivera');
  await fill(user, 'Email *', 'pat.rivera@clinic.example');
  await fill(user, 'Email again *', 'pat.rivera@clinic.example');
  await fill(user, /^Phone/, '410-555-0123');
  if (dob) {
    await user.click(
      within(screen.getByRole('group', { name: /date of birth/i })).getByRole('spinbutton', { name: 'Month' }),
    );
    await user.keyboard('03141975');
  }
  await fill(user, /^Username/, 'pat.rivera');
  await fill(user, /^Password \*/, PASSWORD);
  await fill(user, /^Password again/, PASSWORD);
  for (const [index, question] of SECURITY_QUESTIONS.slice(0, 3).entries()) {
    const row = screen.getByRole('group', { name: `Security question ${index + 1}` });
    await user.selectOptions(within(row).getByRole('combobox', { name: /question/i }), question.key);
    await user.click(within(row).getByLabelText(/answer/i));
    await user.paste(`answer ${index + 1}`);
  }
}
