import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { server } from '../../../testing/msw-server';
import { contentRoute, defaultErrorMessages } from '../../../testing/content-handlers';
import { renderWithProviders } from '../../../testing/render-app';
import { ApiForm, useApiForm } from '../api-form';
import { FormField } from '../form-field';
import { FormSubmitButton } from '../form-submit-button';

const Schema = z.object({
  dob: z.string().check(z.minLength(1, 'Date_Of_Birth_Invalid')),
  emailConfirmation: z.string().check(z.minLength(1, 'Email_Mismatch')),
});
type Values = z.infer<typeof Schema>;
const fieldIds = { dob: 'demo-dob', emailConfirmation: 'demo-email-again' };

function DemoForm() {
  const form = useApiForm<Values>({
    schema: Schema,
    defaultValues: { dob: '', emailConfirmation: '' },
    fieldIds,
    submit: async () => undefined,
  });
  return (
    <ApiForm form={form} label="Demo">
      <FormField id={fieldIds.dob} name="dob" label="Date of birth" />
      <FormField id={fieldIds.emailConfirmation} name="emailConfirmation" label="Email again" />
      <FormSubmitButton submitting={form.submitting}>Check</FormSubmitButton>
    </ApiForm>
  );
}

describe('useApiForm + ApiForm', () => {
  it("a first submit's summary appears with every problem at once, also when one text comes from the CMS later", async () => {
    let answer!: () => void;
    const cmsAnswered = new Promise<void>((resolve) => (answer = resolve));
    // Holds back the lookup of one code's text, then falls through to the usual error-messages route.
    server.use(
      http.get(contentRoute('error-messages'), async ({ request }) => {
        if (new URL(request.url).searchParams.get('filters[ErrorCode][$eq]') === 'Email_Mismatch') await cmsAnswered;
      }),
    );
    const { user } = renderWithProviders(<DemoForm />);
    await user.click(screen.getByRole('button', { name: 'Check' }));
    // The other text has come: the field shows it, the summary still waits for the held one.
    await waitFor(() =>
      expect(document.getElementById('demo-dob-helper-text')).toHaveTextContent(
        defaultErrorMessages.Date_Of_Birth_Invalid!,
      ),
    );
    expect(screen.queryByTestId('form-error-summary')).not.toBeInTheDocument();
    answer();
    const summary = await screen.findByTestId('form-error-summary');
    expect(summary).toHaveTextContent(defaultErrorMessages.Date_Of_Birth_Invalid!);
    expect(summary).toHaveTextContent(defaultErrorMessages.Email_Mismatch!);
    await waitFor(() => expect(summary).toHaveFocus());
  });
});
