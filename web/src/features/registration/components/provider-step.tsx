import { Alert, Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { selectableJurisdictions } from '@portal/contracts';
import type { LocationSummary, ValidateProviderRequest } from '@portal/contracts/registration';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod/mini';
import { Link as RouterLink } from 'react-router';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import {
  ProviderLocationFields,
  providerLocationResolver,
  type ProviderLocationValues,
} from '../../../components/form/provider-location-fields';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-error';
import { useReportedValues } from '../../../lib/use-wizard';
import { findAdminPrefillState } from '../../../lib/find-admin-prefill';

export type ProviderFormValues = ProviderLocationValues;

export interface ValidatedLocation {
  npi: string;
  validationToken: string;
  summary: LocationSummary | undefined;
}

const fieldIds = {
  npi: 'register-npi',
  ptan: 'register-ptan',
  tin: 'register-tin',
  region: 'register-region',
} as const;
const resolver = providerLocationResolver<ProviderFormValues, typeof ValidateProviderRequest>(() =>
  import('@portal/contracts/registration').then((m) => m.ValidateProviderRequest),
);
// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const registrationApi = () => import('../api/registration-api');

function LocationSummaryList({ summary }: { summary: LocationSummary }) {
  const region = selectableJurisdictions.find(
    (e) => e.jurisdiction === summary.jurisdiction && e.lineOfBusiness === summary.lineOfBusiness,
  );
  const rows: [string, string][] = [
    ['Legal name', summary.legalName],
    ['Jurisdiction', summary.jurisdiction],
    ['Line of business', region ? region.title.replace(/^.*(Part [AB])$/, '$1') : summary.lineOfBusiness],
    ['TIN', summary.maskedTin],
  ];
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, m: 0 }}>
      {rows.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontWeight: 700 }}>
            {term}
          </Box>
          <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid={`location-${term}`}>
            {value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/**
 * Step 1 (docs/requirements/portal.md#provider-validation): NPI, PTAN, TIN and the jurisdiction with its line of
 * business (pre-filled from the chosen region) are checked by the server; the matched location's summary is shown
 * for the user to confirm before going on with its validation token.
 */
export function ProviderStep({
  defaultValues,
  validated,
  onValues,
  onValidated,
  onConfirm,
}: {
  defaultValues: ProviderFormValues;
  /** A location already matched with these values (the user came back to this step). */
  validated: ValidatedLocation | undefined;
  /** The values as they are typed (the wizard keeps them, use-wizard.ts). */
  onValues?: (values: ProviderFormValues) => void;
  onValidated: (values: ProviderFormValues, location: ValidatedLocation | undefined) => void;
  onConfirm: () => void;
}) {
  const state = useApiForm<ProviderFormValues, z.output<typeof ValidateProviderRequest>>({
    resolver,
    defaultValues,
    fieldIds,
    submit: async (request) => {
      const answer = await (await registrationApi()).validateProvider(request);
      onValidated(state.form.getValues(), {
        npi: request.npi,
        validationToken: answer.validationToken,
        summary: answer.location,
      });
      setConfirming(true);
    },
  });
  const { form, apiError } = state;
  useReportedValues(form, onValues);
  const [confirming, setConfirming] = useState(!!validated);
  // The form that had the focus is gone once a location is found: the focus goes to what was found.
  const found = useRef<HTMLParagraphElement>(null);
  const showingFound = confirming && !!validated;
  const wasShowingFound = useRef(showingFound);
  useEffect(() => {
    // Only when the search found it now (coming back to the step, the step's heading has the focus).
    if (showingFound && !wasShowingFound.current) found.current?.focus();
    wasShowingFound.current = showingFound;
  }, [showingFound]);
  const hasAdministrator = apiError instanceof ApiError && apiError.code === 'Location_Has_Administrator';

  if (confirming && validated) {
    return (
      <Box>
        <Typography sx={{ mb: 2, '&:focus': { outline: 'none' } }} ref={found} tabIndex={-1}>
          We found this provider location. Check that it is yours.
        </Typography>
        <Paper variant="outlined" sx={{ p: 2, mb: 3 }} aria-label="Matched provider location" component="section">
          {validated.summary ? (
            <LocationSummaryList summary={validated.summary} />
          ) : (
            <Typography>The provider details match a location.</Typography>
          )}
        </Paper>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button variant="contained" onClick={onConfirm}>
            This is my location, continue
          </Button>
          <Button
            variant="outlined"
            onClick={() => {
              onValidated(form.getValues(), undefined);
              setConfirming(false);
            }}
          >
            Change provider details
          </Button>
        </Stack>
      </Box>
    );
  }

  return (
    <ApiForm form={state} label="Provider location">
      {hasAdministrator && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Your location&apos;s administrator can give you access.{' '}
          <Link
            component={RouterLink}
            to={paths.findAdmin.href()}
            state={findAdminPrefillState({
              npi: form.getValues('npi'),
              ptan: form.getValues('ptan'),
              tin: form.getValues('tin'),
            })}
          >
            Find my administrator
          </Link>{' '}
          or{' '}
          <Link component={RouterLink} to={paths.registerUser.href()}>
            register as a user
          </Link>{' '}
          to ask for access.
        </Alert>
      )}
      <Typography sx={{ mb: 1 }}>
        Enter the identifiers of the provider location you are the administrator for.
      </Typography>
      <ProviderLocationFields form={form} ids={fieldIds} />
      <Button type="submit" variant="contained" disabled={state.submitting} sx={{ mt: 2 }}>
        Find my provider location
      </Button>
    </ApiForm>
  );
}
