import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { FormTextField } from './form-text-field';

export type ProviderIdentifier = 'npi' | 'ptan' | 'tin';

/**
 * Each identifier's label and the hint under its field: what a valid one looks like (the rules and their messages
 * are the contracts' schemas, docs/requirements/portal.md#identifiers). The NPI and TIN are digits, so phones show
 * the number pad; none of them is something the browser should fill in from another form.
 */
const identifierFields: Record<ProviderIdentifier, { label: string; helperText: string; inputMode?: 'numeric' }> = {
  npi: { label: 'National Provider Identifier (NPI)', helperText: '10 digits', inputMode: 'numeric' },
  ptan: { label: 'Provider Transaction Access Number (PTAN)', helperText: '6 to 10 letters or numbers' },
  tin: {
    label: 'Tax Identification Number (TIN)',
    helperText: '9 digits, for example 12-3456789',
    inputMode: 'numeric',
  },
};

const identifierOrder: readonly ProviderIdentifier[] = ['npi', 'ptan', 'tin'];

/**
 * A provider location's identifiers (NPI, PTAN, TIN) as required text fields of a react-hook-form form whose values
 * hold them under these names. `ids` chooses which show (always in the order NPI, PTAN, TIN) and gives each input's
 * id (the form's error summary links to it).
 */
export function ProviderIdentifierFields<T extends FieldValues, R>({
  form,
  ids,
}: {
  form: UseFormReturn<T, unknown, R>;
  ids: Partial<Record<ProviderIdentifier & Path<T>, string>>;
}) {
  return identifierOrder.flatMap((identifier) => {
    const name = identifier as ProviderIdentifier & Path<T>;
    const id = ids[name];
    if (!id) return [];
    const { label, helperText, inputMode } = identifierFields[identifier];
    return [
      <FormTextField
        key={name}
        id={id}
        label={label}
        registration={form.register(name)}
        error={form.getFieldState(name, form.formState).error}
        helperText={helperText}
        slotProps={{ htmlInput: { inputMode, autoComplete: 'off' } }}
        required
      />,
    ];
  });
}
