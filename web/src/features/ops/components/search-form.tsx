import { Box, Button } from '@mui/material';
import { OPS_QUERY_MAX, OPS_QUERY_MIN } from '@portal/contracts/ops-routes';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';

/**
 * Find a person's one box (docs/requirements/help-desk.md): username, email, name, NPI or PTAN. `onSearch` gets the
 * trimmed query ('' for an empty box); `q` is the query of the address, which the box shows.
 */
export function SearchForm({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  // A plain useForm, not useApiForm (docs/decisions/0079-console-actions.md): the search sends nothing to the API, it
  // writes `?q=` to the address (the results are a query of that), and its one message stays next to its box.
  const form = useForm<{ q: string }>({ values: { q } });
  const search = form.handleSubmit(({ q: typed }) => onSearch(typed.trim()));
  return (
    <Box
      component="form"
      role="search"
      aria-label="Find a person"
      onSubmit={search}
      noValidate
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', maxWidth: 900 }}
    >
      <FormTextField
        id="ops-search"
        label="Username, email, name, NPI or PTAN"
        type="search"
        registration={form.register('q', {
          validate: (value) =>
            value.trim().length >= OPS_QUERY_MIN || `Type at least ${OPS_QUERY_MIN} characters to search.`,
          maxLength: { value: OPS_QUERY_MAX, message: `Type at most ${OPS_QUERY_MAX} characters.` },
        })}
        error={form.formState.errors.q}
        sx={{ flex: '1 1 18rem' }}
      />
      <Button type="submit" variant="contained" sx={{ mt: 2, height: 56, px: 4 }}>
        Search
      </Button>
    </Box>
  );
}
