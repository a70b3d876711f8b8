import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@mui/material';
import { EmailSchema, PhoneSchema, dateOfBirthSchema } from '@portal/contracts/fields';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { FormProvider, useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render-app';
import { DateOfBirthField } from '../form-date-field';
import { EmailField, PhoneField } from '../form-field';
import { NewPasswordFields } from '../new-password-fields';
import { StepHeading } from '../step-heading';

const GENERATED = 'kT7wQm3xPa9RcV4yHn8e';
const TODAY = '2026-03-10';

const Schema = z.object({
  email: EmailSchema,
  phone: PhoneSchema,
  dob: dateOfBirthSchema(() => TODAY),
  password: z.string().check(z.minLength(15, 'Enter a password of at least 15 characters.')),
  again: z.string(),
});
type Values = z.input<typeof Schema>;

/** A form that only declares the shared fields by name, as the portal's forms do. */
function DemoForm({ confirm, onValid }: { confirm: boolean; onValid: (values: unknown) => void }) {
  const form = useForm<Values>({
    resolver: zodResolver(Schema),
    defaultValues: { email: '', phone: '', dob: '', password: '', again: '' },
    shouldFocusError: false,
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="Demo">
        <StepHeading progress={{ step: 2, of: 3 }} focus>
          Your details
        </StepHeading>
        <EmailField id="demo-email" name="email" required />
        <PhoneField id="demo-phone" name="phone" required />
        <DateOfBirthField id="demo-dob" name="dob" />
        <NewPasswordFields
          id="demo-password"
          name="password"
          confirmation={confirm ? { id: 'demo-again', name: 'again', label: 'Password again' } : undefined}
        />
        <Button type="submit">Continue</Button>
      </form>
    </FormProvider>
  );
}

function renderDemo(confirm = true) {
  const submitted: unknown[] = [];
  const view = renderWithProviders(<DemoForm confirm={confirm} onValid={(values) => submitted.push(values)} />);
  return { ...view, submitted };
}

const generatorAnswers = () =>
  server.use(http.post('/api/password/generate/get', () => HttpResponse.json({ data: { password: GENERATED } })));

describe('shared fields (components/form)', () => {
  it('the generator fills the new password and its confirmation', { timeout: 30_000 }, async () => {
    generatorAnswers();
    const { user } = renderDemo();
    await user.click(screen.getByRole('button', { name: 'Generate a password' }));
    // Said, never shown in clear (issue 38): the field's Show button reveals it.
    expect(await screen.findByTestId('generated-password-status')).toHaveTextContent(/generated and filled in/);
    expect(screen.getByTestId('generated-password-status')).not.toHaveTextContent(GENERATED);
    await waitFor(() => expect(screen.getByLabelText(/^new password/i)).toHaveValue(GENERATED));
    expect(screen.getByLabelText(/^password again/i)).toHaveValue(GENERATED);
    // The checklist follows the generated password.
    expect(document.querySelector('[data-rule="Password_Too_Short"]')).toHaveAttribute('data-met', 'true');
  });

  it('the generator fills a form that asks for the password once', { timeout: 30_000 }, async () => {
    generatorAnswers();
    const { user } = renderDemo(false);
    expect(screen.queryByLabelText(/^password again/i)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate a password' }));
    await waitFor(() => expect(screen.getByLabelText(/^new password/i)).toHaveValue(GENERATED));
  });

  it(
    'after a failed submit, a generated password clears the error next to the field',
    { timeout: 30_000 },
    async () => {
      generatorAnswers();
      const { user } = renderDemo();
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByText('Enter a password of at least 15 characters.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Generate a password' }));
      await waitFor(() => expect(screen.queryByText('Enter a password of at least 15 characters.')).toBeNull());
    },
  );

  it(
    'email and phone are typed fields that browsers fill; their errors sit next to them',
    { timeout: 30_000 },
    async () => {
      const { user, submitted } = renderDemo();
      const email = screen.getByLabelText(/^email address/i);
      const phone = screen.getByLabelText(/^phone/i);
      expect(email).toHaveAttribute('type', 'email');
      expect(email).toHaveAttribute('autocomplete', 'email');
      expect(phone).toHaveAttribute('type', 'tel');
      expect(phone).toHaveAttribute('autocomplete', 'tel-national');
      await user.type(email, 'jane@example');
      await user.type(phone, '123');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
      expect(phone).toHaveAttribute('aria-invalid', 'true');
      expect(submitted).toEqual([]);
    },
  );

  it('the date of birth refuses a future day next to the field', { timeout: 30_000 }, async () => {
    const { user, submitted } = renderDemo();
    const dob = screen.getByRole('group', { name: /date of birth/i });
    await user.click(within(dob).getByRole('spinbutton', { name: 'Month' }));
    await user.keyboard('03112026');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(dob).toHaveAttribute('aria-invalid', 'true'));
    const helper = document.getElementById(dob.getAttribute('aria-describedby')!);
    // The CMS text of `Date_Of_Birth_In_Future` (the test CMS's seeded messages), never the bare code.
    await waitFor(() => expect(helper?.textContent).toMatch(/future/i));
    expect(helper).not.toHaveTextContent('Date_Of_Birth_In_Future');
    expect(submitted).toEqual([]);
  });

  it('one step heading: an h2 with its progress that takes the focus', () => {
    renderDemo();
    const heading = screen.getByRole('heading', { level: 2, name: /your details/i });
    expect(heading).toHaveTextContent('Step 2 of 3');
    expect(heading).toHaveFocus();
  });
});
