import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@mui/material';
import { render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useForm, useWatch } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { server } from '../../../testing/msw-server';
import { contentRoute, defaultErrorMessages } from '../../../testing/content-handlers';
import { renderWithProviders } from '../../../testing/render-app';
import { FormDateField } from '../form-date-field';
import { FormErrorSummary } from '../form-error-summary';
import { FormPasswordField } from '../form-password-field';
import { FormRadioGroup } from '../form-radio-group';
import { FormSelectField } from '../form-select-field';
import { fieldErrorItems, FormTextField } from '../form-text-field';
import { GeneratePasswordAction } from '../generate-password-action';

const Schema = z.object({
  question: z.string().check(z.minLength(1, 'Choose a question.')),
  proof: z.string().check(z.minLength(1, 'Choose how to prove it.')),
  dob: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Date of Birth is invalid')),
  password: z.string().check(z.minLength(15, 'Enter a password of at least 15 characters.')),
  confirmPassword: z.string(),
});
type Values = z.infer<typeof Schema>;
const fieldIds = { question: 'demo-question', proof: 'demo-proof', dob: 'demo-dob', password: 'demo-password' };

function DemoForm({ onValid }: { onValid: (values: Values) => void }) {
  const form = useForm<Values>({
    resolver: zodResolver(Schema),
    defaultValues: { question: '', proof: '', dob: '', password: '', confirmPassword: '' },
    shouldFocusError: false,
  });
  const { errors, submitCount } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate aria-label="Demo">
      <FormErrorSummary errors={fieldErrorItems(errors, fieldIds)} submitCount={submitCount} />
      <FormSelectField
        id={fieldIds.question}
        label="Question"
        options={[
          { value: 'q1', label: 'First pet?' },
          { value: 'q2', label: 'First street?' },
        ]}
        registration={form.register('question')}
        error={errors.question}
      />
      <FormRadioGroup
        id={fieldIds.proof}
        label="How will you prove it?"
        name="proof"
        control={form.control}
        options={[
          { value: 'check', label: 'A check number' },
          { value: 'claim', label: 'A claim number' },
        ]}
      />
      <FormDateField id={fieldIds.dob} label="Date of birth" name="dob" control={form.control} />
      <FormPasswordField
        id={fieldIds.password}
        label="Password"
        autoComplete="new-password"
        registration={form.register('password')}
        error={errors.password}
        checklist={{ password, personal: ['Jane', 'Doe'] }}
      />
      <FormPasswordField
        id="demo-confirm"
        label="Confirm password"
        autoComplete="new-password"
        registration={form.register('confirmPassword')}
      />
      <GeneratePasswordAction
        id="demo-generate"
        onGenerated={(generated) => {
          form.setValue('password', generated, { shouldValidate: submitCount > 0 });
          form.setValue('confirmPassword', generated);
        }}
      />
      <Button type="submit">Continue</Button>
    </form>
  );
}

function renderDemo() {
  const submitted: Values[] = [];
  const view = renderWithProviders(<DemoForm onValid={(values) => submitted.push(values)} />);
  return { ...view, submitted };
}

describe('form pattern (components/form)', () => {
  it('an empty submit: the summary takes focus, links every field in error, each error is tied to its field', async () => {
    const { user, submitted } = renderDemo();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByTestId('form-error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    const links = within(summary).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '#demo-question',
      '#demo-proof',
      '#demo-dob',
      '#demo-password',
    ]);
    expect(submitted).toEqual([]);

    const select = screen.getByRole('combobox', { name: /question/i });
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(select.getAttribute('aria-describedby')!)).toHaveTextContent('Choose a question.');

    const group = screen.getByRole('radiogroup', { name: 'How will you prove it?' });
    expect(group).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(group.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Choose how to prove it.',
    );

    const password = screen.getByLabelText(/^password/i);
    expect(password.getAttribute('aria-describedby')!.split(' ')).toEqual([
      'demo-password-helper-text',
      'demo-password-checklist',
    ]);
    expect(document.getElementById('demo-password-helper-text')).toHaveTextContent(
      'Enter a password of at least 15 characters.',
    );
    const dob = screen.getByRole('group', { name: /date of birth/i });
    expect(dob).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(dob.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Date of Birth is invalid',
    );

    // A link in the summary moves focus to its field.
    await user.click(within(summary).getByRole('link', { name: 'Choose how to prove it.' }));
    expect(screen.getByRole('radio', { name: 'A check number' })).toHaveFocus();
    await user.click(within(summary).getByRole('link', { name: 'Date of Birth is invalid' }));
    expect(dob).toContainElement(document.activeElement as HTMLElement);
  });

  // Typing into the picker's sections is slow in jsdom on a busy machine.
  it(
    'binds the select, the radio group and the date (typed as MM/DD/YYYY, held as YYYY-MM-DD)',
    { timeout: 30_000 },
    async () => {
      const { user, submitted } = renderDemo();
      await user.selectOptions(screen.getByRole('combobox', { name: /question/i }), 'q2');
      await user.click(screen.getByRole('radio', { name: 'A claim number' }));
      await user.click(screen.getByRole('spinbutton', { name: 'Month' }));
      await user.keyboard('01151980');
      await user.click(screen.getByLabelText(/^password/i));
      await user.paste('violet lantern orbit tea');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await waitFor(() => expect(submitted).toHaveLength(1));
      expect(submitted[0]).toMatchObject({ question: 'q2', proof: 'claim', dob: '1980-01-15' });
    },
  );

  it('a date typed in part counts as invalid, not as missing-and-ignored', { timeout: 30_000 }, async () => {
    const { user, submitted } = renderDemo();
    await user.click(screen.getByRole('spinbutton', { name: 'Month' }));
    await user.keyboard('0115');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('link', { name: 'Date of Birth is invalid' })).toBeInTheDocument();
    expect(submitted).toEqual([]);
  });

  it(
    'the checklist shows each rule as typed and announces the state politely once typing pauses',
    { timeout: 30_000 },
    async () => {
      const { user } = renderDemo();
      const rule = (code: string) => document.querySelector(`[data-rule="${code}"]`)!;
      expect(rule('Password_Too_Short')).toHaveTextContent('(not met yet)');
      // An empty field has no more than 128 characters: that rule is never "not met yet" (issue 22, item 10).
      expect(rule('Password_Too_Long')).toHaveAttribute('data-met', 'true');
      expect(rule('Password_Too_Long')).not.toHaveTextContent('not met yet');
      await user.type(screen.getByLabelText(/^password/i), 'jane');
      expect(rule('Password_Too_Short')).toHaveAttribute('data-met', 'false');
      expect(rule('Password_Too_Long')).toHaveAttribute('data-met', 'true');
      expect(rule('Password_Contains_Personal_Info')).toHaveAttribute('data-met', 'false');
      const status = screen.getByTestId('password-checklist-status');
      expect(status).toHaveAttribute('aria-live', 'polite');
      await waitFor(() => expect(status).toHaveTextContent('The password meets 2 of 4 rules.'));
      await user.clear(screen.getByLabelText(/^password/i));
      await user.paste('violet lantern orbit tea');
      expect(rule('Password_Contains_Personal_Info')).toHaveAttribute('data-met', 'true');
      await waitFor(() => expect(status).toHaveTextContent('The password meets every rule.'));
      // The common-password rule uses the lazily loaded list.
      await user.clear(screen.getByLabelText(/^password/i));
      await user.paste('baseball1234567');
      await waitFor(() => expect(rule('Password_Too_Common')).toHaveAttribute('data-met', 'false'));
    },
  );

  it('the summary takes focus once per submit: errors that go and come back while the user types leave the focus in the field', async () => {
    const errors = [{ fieldId: 'typed', message: 'Choose a password you have not used before.' }];
    const Form = ({ shown, submitCount }: { shown: typeof errors; submitCount: number }) => (
      <form aria-label="Summary demo">
        <FormErrorSummary errors={shown} submitCount={submitCount} />
        <input id="typed" aria-label="Typed" />
      </form>
    );
    // Rendered on its own (no router), so that a rerender updates the same summary instead of mounting a new one.
    const { rerender } = render(<Form shown={errors} submitCount={1} />);
    await waitFor(() => expect(screen.getByTestId('form-error-summary')).toHaveFocus());
    screen.getByRole('textbox', { name: 'Typed' }).focus();
    rerender(<Form shown={[]} submitCount={1} />);
    rerender(<Form shown={errors} submitCount={1} />);
    expect(screen.getByRole('textbox', { name: 'Typed' })).toHaveFocus();
    // The next submit that fails is announced again.
    rerender(<Form shown={errors} submitCount={2} />);
    await waitFor(() => expect(screen.getByTestId('form-error-summary')).toHaveFocus());
  });

  it('a field given an error code shows its CMS text, never the bare code, even from a form that does not translate it', async () => {
    const Field = () => {
      const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
      return (
        <FormTextField
          id="coded"
          label="Name"
          registration={form.register('name')}
          error={{ type: 'server', message: 'Password_Reused' }}
        />
      );
    };
    renderWithProviders(<Field />);
    const input = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() =>
      expect(document.getElementById('coded-helper-text')).toHaveTextContent(defaultErrorMessages.Password_Reused!),
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Password_Reused')).not.toBeInTheDocument();
  });

  it('a date field and a radio group given error codes show their CMS texts, never the bare codes', async () => {
    const Coded = z.object({
      dob: z.string().check(z.minLength(1, 'Date_Of_Birth_Invalid')),
      proof: z.string().check(z.minLength(1, 'Security_Question_Invalid')),
    });
    const Form = () => {
      const form = useForm<z.infer<typeof Coded>>({
        resolver: zodResolver(Coded),
        defaultValues: { dob: '', proof: '' },
        shouldFocusError: false,
      });
      return (
        <form onSubmit={form.handleSubmit(() => undefined)} noValidate aria-label="Coded">
          <FormDateField id="coded-dob" label="Date of birth" name="dob" control={form.control} />
          <FormRadioGroup
            id="coded-proof"
            label="Proof"
            name="proof"
            control={form.control}
            options={[{ value: 'check', label: 'A check number' }]}
          />
          <Button type="submit">Check</Button>
        </form>
      );
    };
    const { user } = renderWithProviders(<Form />);
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() =>
      expect(document.getElementById('coded-dob-helper-text')).toHaveTextContent(
        defaultErrorMessages.Date_Of_Birth_Invalid!,
      ),
    );
    await waitFor(() =>
      expect(document.getElementById('coded-proof-helper-text')).toHaveTextContent(
        defaultErrorMessages.Security_Question_Invalid!,
      ),
    );
    expect(screen.queryByText(/Date_Of_Birth_Invalid|Security_Question_Invalid/)).not.toBeInTheDocument();
  });

  it('a password field given an error code is described by its text only once the CMS answers', async () => {
    let answer!: () => void;
    const cmsAnswered = new Promise<void>((resolve) => (answer = resolve));
    // Holds the lookup back, then falls through to the usual error-messages route.
    server.use(http.get(contentRoute('error-messages'), () => cmsAnswered));
    const Field = () => {
      const form = useForm<{ current: string }>({ defaultValues: { current: '' } });
      return (
        <FormPasswordField
          id="coded-password"
          label="Current password"
          autoComplete="current-password"
          registration={form.register('current')}
          error={{ type: 'server', message: 'Password_Reused' }}
        />
      );
    };
    renderWithProviders(<Field />);
    const input = screen.getByLabelText(/^current password/i);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    // While the lookup is out there is no helper text, so nothing to point at (never an id of nothing).
    expect(document.getElementById('coded-password-helper-text')).toBeNull();
    expect(input).not.toHaveAttribute('aria-describedby');
    answer();
    await waitFor(() => expect(input).toHaveAttribute('aria-describedby', 'coded-password-helper-text'));
    expect(document.getElementById('coded-password-helper-text')).toHaveTextContent(
      defaultErrorMessages.Password_Reused!,
    );
  });

  it('Show reveals the password and Hide masks it again', async () => {
    const { user } = renderDemo();
    const input = screen.getByLabelText(/^password/i);
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAttribute('autocomplete', 'new-password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it("'Generate a password' fills both fields and says so, without the password in clear", async () => {
    server.use(
      http.post('/api/password/generate/get', () => HttpResponse.json({ data: { password: 'kT7wQm3xPa9RcV4yHn8e' } })),
    );
    const { user } = renderDemo();
    await user.click(screen.getByRole('button', { name: 'Generate a password' }));
    expect(await screen.findByTestId('generated-password-status')).not.toHaveTextContent('kT7wQm3xPa9RcV4yHn8e');
    expect(screen.getByLabelText(/^password/i)).toHaveValue('kT7wQm3xPa9RcV4yHn8e');
    expect(screen.getByLabelText(/^confirm password/i)).toHaveValue('kT7wQm3xPa9RcV4yHn8e');
  });

  it("a failed 'Generate a password' shows the error text and fills nothing", async () => {
    server.use(
      http.post('/api/password/generate/get', () =>
        HttpResponse.json({ errorMessage: 'Too_Many_Requests' }, { status: 429 }),
      ),
    );
    const { user } = renderDemo();
    await user.click(screen.getByRole('button', { name: 'Generate a password' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByLabelText(/^password/i)).toHaveValue('');
  });
});
