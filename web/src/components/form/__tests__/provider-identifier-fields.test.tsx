import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@mui/material';
import { FindAdminRequest } from '@portal/contracts';
import { screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { errorMessagesRoute } from '../../../testing/content-handlers';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render-app';
import { FormErrorSummary } from '../form-error-summary';
import { ProviderIdentifierFields, type ProviderIdentifier } from '../provider-identifier-fields';
import { useApiFormSubmit } from '../use-api-form-submit';

const allIds = { npi: 'demo-npi', ptan: 'demo-ptan', tin: 'demo-tin' };

/** A form of the three identifiers checked by the contracts' schema; `submit` stands for the API call. */
function IdentifierForm({
  ids,
  submit,
}: {
  ids: Partial<Record<ProviderIdentifier, string>>;
  submit: (values: FindAdminRequest) => Promise<void>;
}) {
  const form = useForm<FindAdminRequest>({
    resolver: zodResolver(FindAdminRequest),
    defaultValues: { npi: '', ptan: '', tin: '' },
    shouldFocusError: false,
  });
  const { onSubmit, summary } = useApiFormSubmit(form, allIds, { submit });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Identifiers">
      <FormErrorSummary errors={summary} submitCount={form.formState.submitCount} />
      <ProviderIdentifierFields form={form} ids={ids} />
      <Button type="submit">Send</Button>
    </form>
  );
}

/** The text an input's aria-describedby points to. */
function description(input: HTMLElement) {
  return document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;
}

const npiField = () => screen.getByRole('textbox', { name: /NPI/ });
const ptanField = () => screen.getByRole('textbox', { name: /PTAN/ });
const tinField = () => screen.getByRole('textbox', { name: /TIN/ });

describe('ProviderIdentifierFields', () => {
  it('shows the chosen identifiers in the order NPI, PTAN, TIN, required, each with its hint and id', () => {
    renderWithProviders(
      <IdentifierForm ids={{ tin: 'demo-tin', npi: 'demo-npi', ptan: 'demo-ptan' }} submit={async () => {}} />,
    );
    const fields = within(screen.getByRole('form', { name: 'Identifiers' })).getAllByRole('textbox');
    expect(fields.map((field) => [field.id, field.getAttribute('aria-invalid'), description(field)])).toEqual([
      ['demo-npi', 'false', '10 digits'],
      ['demo-ptan', 'false', '6 to 10 letters or numbers'],
      ['demo-tin', 'false', '9 digits, for example 12-3456789'],
    ]);
    for (const field of fields) expect(field).toBeRequired();
    expect(npiField()).toHaveAccessibleName('National Provider Identifier (NPI)');
    expect(npiField()).toHaveAttribute('inputmode', 'numeric');
    expect(tinField()).toHaveAttribute('inputmode', 'numeric');
  });

  it('shows only the identifiers given an id', () => {
    renderWithProviders(<IdentifierForm ids={{ npi: 'only-npi' }} submit={async () => {}} />);
    expect(screen.getAllByRole('textbox').map((field) => field.id)).toEqual(['only-npi']);
  });

  it('ties each field to its schema error, which replaces the hint, and the summary links to it', async () => {
    const sent: FindAdminRequest[] = [];
    const { user } = renderWithProviders(
      <IdentifierForm ids={allIds} submit={async (values) => void sent.push(values)} />,
    );
    await user.type(npiField(), '1234567890');
    await user.type(tinField(), '12-3456789');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const summary = await screen.findByTestId('form-error-summary');
    expect(
      within(summary)
        .getAllByRole('link')
        .map((link) => [link.getAttribute('href'), link.textContent]),
    ).toEqual([
      ['#demo-npi', 'This NPI is not valid. Check the 10 digits and try again.'],
      ['#demo-ptan', 'Enter the Provider Transaction Access Number (PTAN): 6 to 10 letters or numbers.'],
    ]);
    expect(npiField()).toHaveAttribute('aria-invalid', 'true');
    expect(description(npiField())).toBe('This NPI is not valid. Check the 10 digits and try again.');
    expect(description(ptanField())).toBe(
      'Enter the Provider Transaction Access Number (PTAN): 6 to 10 letters or numbers.',
    );
    expect(tinField()).toHaveAttribute('aria-invalid', 'false');
    expect(description(tinField())).toBe('9 digits, for example 12-3456789');
    expect(sent).toEqual([]);
  });

  it("shows the server's field errors next to their fields, an error code as its CMS text", async () => {
    server.use(errorMessagesRoute({ Tin_Not_On_File: 'We have no location with this TIN.' }));
    const { user } = renderWithProviders(
      <IdentifierForm
        ids={allIds}
        submit={async () => {
          throw new ApiError(400, 'Validation_Failed', {
            ptan: ['This PTAN is closed.'],
            tin: ['Tin_Not_On_File'],
          });
        }}
      />,
    );
    await user.type(npiField(), '1234567893');
    await user.type(ptanField(), 'ab-1234');
    await user.type(tinField(), '12-3456789');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByTestId('form-error-summary');
    expect(ptanField()).toHaveAttribute('aria-invalid', 'true');
    expect(description(ptanField())).toBe('This PTAN is closed.');
    expect(tinField()).toHaveAttribute('aria-invalid', 'true');
    await expect.poll(() => description(tinField())).toBe('We have no location with this TIN.');
    expect(npiField()).toHaveAttribute('aria-invalid', 'false');
  });
});
