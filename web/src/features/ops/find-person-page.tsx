import { Alert, Box, Chip, Link, List, ListItem, Paper, Stack, Typography } from '@mui/material';
import type { OpsLocationSummary, OpsPersonHit } from '@portal/contracts/ops';
import { OPS_PAGE_PATHS } from '@portal/contracts/paths';
import { OPS_QUERY_MIN, OPS_SEARCH_LIMIT, opsPath } from '@portal/contracts/ops-routes';
import { useCallback } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { SectionQuery } from '../../components/layouts/section-query';
import { lazyPart } from '../../lib/lazy-part';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useOpsSearch } from './api/ops-api';
import { accountStatusLabel } from './ops-text';

/**
 * The search box: a part that hydrates on its own (lib/lazy-part.tsx), so MUI's text field and react-hook-form are not
 * in the console's first download (issue 39). The route starts loading it with the page (`opsParts`).
 */
export const searchForm = lazyPart(() => import('./components/search-form').then((m) => m.SearchForm), {
  reserve: '3.5rem',
});

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
  // Stable, so the search box (a memoized part) is not rendered again before it has hydrated.
  const search = useCallback((typed: string) => setParams(typed ? { q: typed } : {}), [setParams]);
  const results = useOpsSearch(q.length >= OPS_QUERY_MIN ? q : '');
  return (
    <>
      <Typography component="h1" variant="h4" gutterBottom>
        Find a person
      </Typography>
      <searchForm.Part q={q} onSearch={search} />
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
