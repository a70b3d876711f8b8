import { Alert, Box, Button, Chip, Link, List, ListItem, Paper, Stack, Typography } from '@mui/material';
import {
  OPS_PAGE_PATHS,
  OPS_QUERY_MAX,
  OPS_QUERY_MIN,
  OPS_SEARCH_LIMIT,
  opsPath,
  type OpsLocationSummary,
  type OpsPersonHit,
} from '@portal/contracts/ops';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FormTextField } from '../../components/form/form-text-field';
import { SectionQuery } from '../../components/layouts/section-query';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useOpsSearch } from './api/ops-api';
import { accountStatusLabel } from './ops-text';

const matchedOnLabel = { username: 'username', email: 'email', name: 'name', npi: 'NPI', ptan: 'PTAN' } as const;

/** "Sunrise Clinic · NPI 1234567893 · PTAN P12345 · J5 Part B (IA)" */
export const locationLine = (location: OpsLocationSummary) =>
  `NPI ${location.npi} · PTAN ${location.ptan} · ${location.jurisdiction} Part ${location.lineOfBusiness} (${location.state})`;

/**
 * Find a person (docs/requirements/help-desk.md): one box for username, email, name, NPI or PTAN. The query is in the
 * address (`?q=`), so the back button returns to the results.
 */
export function FindPersonPage() {
  useDocumentTitle('Find a person');
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  // A plain useForm, not useApiForm (docs/decisions/0079-console-actions.md): the search sends nothing to the API, it
  // writes `?q=` to the address (the results are a query of that), and its one message stays next to its box.
  const form = useForm<{ q: string }>({ values: { q } });
  const results = useOpsSearch(q.length >= OPS_QUERY_MIN ? q : '');
  const search = form.handleSubmit(({ q: typed }) => setParams(typed.trim() ? { q: typed.trim() } : {}));
  return (
    <>
      <Typography component="h1" variant="h4" gutterBottom>
        Find a person
      </Typography>
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
      {q === '' ? (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          Ask the caller for their username, the email address on the account, their name, or their location&apos;s NPI
          or PTAN.
        </Typography>
      ) : q.length < OPS_QUERY_MIN ? null : (
        <Box aria-live="polite" sx={{ mt: 2 }}>
          <SectionQuery
            query={results}
            loadingLabel="Searching"
            lines={5}
            isEmpty={(data) => data.people.length === 0 && data.locations.length === 0}
            empty={
              <Alert severity="info" data-testid="ops-search-empty">
                No person or location matches &ldquo;{q}&rdquo;. Check the spelling, or try another of the caller&apos;s
                details.
              </Alert>
            }
          >
            {(data) => (
              <Stack spacing={3}>
                {data.truncated && (
                  <Alert severity="info">
                    More than {OPS_SEARCH_LIMIT} match &ldquo;{q}&rdquo;: only the first {OPS_SEARCH_LIMIT} are shown.
                    Add more of the caller&apos;s details.
                  </Alert>
                )}
                {data.people.length > 0 && (
                  <section aria-labelledby="ops-people-title">
                    <Typography component="h2" variant="h5" id="ops-people-title" gutterBottom>
                      People ({data.people.length})
                    </Typography>
                    <List disablePadding aria-labelledby="ops-people-title">
                      {data.people.map((person) => (
                        <PersonHit key={person.userId} person={person} />
                      ))}
                    </List>
                  </section>
                )}
                {data.locations.length > 0 && (
                  <section aria-labelledby="ops-locations-title">
                    <Typography component="h2" variant="h5" id="ops-locations-title" gutterBottom>
                      Provider locations ({data.locations.length})
                    </Typography>
                    <List disablePadding aria-labelledby="ops-locations-title">
                      {data.locations.map((location) => (
                        <ListItem key={location.locationId} disableGutters>
                          <Paper variant="outlined" sx={{ p: 2, width: '100%' }}>
                            <Link
                              component={RouterLink}
                              to={opsPath(OPS_PAGE_PATHS.location, { locationId: location.locationId })}
                              sx={{ fontWeight: 700, fontSize: '1.1rem' }}
                            >
                              {location.legalName}
                            </Link>
                            <Typography variant="body2">{locationLine(location)}</Typography>
                          </Paper>
                        </ListItem>
                      ))}
                    </List>
                  </section>
                )}
              </Stack>
            )}
          </SectionQuery>
        </Box>
      )}
    </>
  );
}

function PersonHit({ person }: { person: OpsPersonHit }) {
  return (
    <ListItem disableGutters>
      <Paper variant="outlined" sx={{ p: 2, width: '100%' }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Link
            component={RouterLink}
            to={opsPath(OPS_PAGE_PATHS.person, { userId: person.userId })}
            sx={{ fontWeight: 700, fontSize: '1.1rem' }}
          >
            {person.name}
          </Link>
          <Chip size="small" label={accountStatusLabel[person.status]} variant="outlined" />
          <Typography variant="body2" color="text.secondary">
            matched on {matchedOnLabel[person.matchedOn]}
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {person.username} · {person.email}
        </Typography>
        {person.locations.length > 0 && (
          <Typography variant="body2" color="text.secondary">
            {person.locations.map((location) => `${location.legalName} (NPI ${location.npi})`).join('; ')}
          </Typography>
        )}
      </Paper>
    </ListItem>
  );
}
