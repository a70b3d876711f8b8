import { Alert, Box, Button, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import type { LocationIdentifiers } from '@portal/contracts/access-requests';
import { MAX_REGISTRATION_LOCATIONS } from '@portal/contracts/field-limits';
import { isJurisdiction, selectableJurisdictions } from '@portal/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod/mini';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import {
  ProviderLocationFields,
  providerLocationResolver,
  type ProviderLocationValues,
} from '../../../components/form/provider-location-fields';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useErrorMessage } from '../../../lib/error-messages';

/** A location the person added, as the request names it; `notFound`: the server matched nothing to it. */
export interface RequestedLocation {
  request: z.output<typeof LocationIdentifiers>;
  notFound?: boolean;
}

const fieldIds = {
  npi: 'register-user-npi',
  ptan: 'register-user-ptan',
  tin: 'register-user-tin',
  region: 'register-user-region',
} as const;
const resolver = providerLocationResolver<ProviderLocationValues, typeof LocationIdentifiers>(() =>
  import('@portal/contracts/access-requests').then((m) => m.LocationIdentifiers),
);

function regionTitle(location: RequestedLocation['request']): string {
  return (
    selectableJurisdictions.find(
      (e) => e.jurisdiction === location.jurisdiction && e.lineOfBusiness === location.lineOfBusiness,
    )?.title ?? `${location.jurisdiction} ${location.lineOfBusiness}`
  );
}

/**
 * Step 1 of `/register/user` (docs/requirements/staff-accounts.md#end-users): the provider locations the person
 * works for, each by NPI, PTAN, TIN and jurisdiction with its line of business. Checked as they are added; the server
 * matches them when the account is created and a location it cannot find comes back here, marked.
 */
export function LocationsStep({
  locations,
  region,
  onChange,
  onContinue,
}: {
  locations: RequestedLocation[];
  /** The region the site shows (pre-fills the choice). */
  region: string;
  onChange: (locations: RequestedLocation[]) => void;
  onContinue: () => void;
}) {
  const empty: ProviderLocationValues = { npi: '', ptan: '', tin: '', region: isJurisdiction(region) ? region : '' };
  const form = useForm<ProviderLocationValues, unknown, z.output<typeof LocationIdentifiers>>({
    resolver,
    defaultValues: empty,
    shouldFocusError: false,
  });
  const [noneAdded, setNoneAdded] = useState(false);
  const noneAddedText = useErrorMessage(noneAdded ? 'Access_Request_Location_Required' : undefined).data;
  const notFoundText = useErrorMessage(locations.some((l) => l.notFound) ? 'Provider_Not_Found' : undefined).data;
  const full = locations.length >= MAX_REGISTRATION_LOCATIONS;
  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
    submit: async (request) => {
      const same = (l: RequestedLocation) =>
        l.request.npi === request.npi &&
        l.request.ptan === request.ptan &&
        l.request.jurisdiction === request.jurisdiction &&
        l.request.lineOfBusiness === request.lineOfBusiness;
      if (!locations.some(same)) onChange([...locations, { request }]);
      setNoneAdded(false);
      form.reset({ ...empty, region: form.getValues('region') });
    },
  });

  return (
    <Box>
      <Typography sx={{ mb: 2 }}>
        Enter each provider location you work for. Its administrator approves your access; you can ask for more
        locations after you log in.
      </Typography>
      {notFoundText && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {notFoundText}
        </Alert>
      )}
      {locations.length > 0 && (
        <Box component="section" aria-labelledby="register-user-added" sx={{ mb: 2 }}>
          <Typography id="register-user-added" component="h3" variant="h6">
            Locations you ask for
          </Typography>
          <List dense>
            {locations.map((location, index) => (
              <ListItem
                key={`${location.request.npi}-${location.request.ptan}-${location.request.jurisdiction}-${location.request.lineOfBusiness}`}
                divider
                secondaryAction={
                  <Button
                    size="small"
                    aria-label={`Remove location NPI ${location.request.npi}, PTAN ${location.request.ptan}`}
                    onClick={() => onChange(locations.filter((_, i) => i !== index))}
                  >
                    Remove
                  </Button>
                }
              >
                <ListItemText
                  primary={`NPI ${location.request.npi}, PTAN ${location.request.ptan}`}
                  secondary={
                    location.notFound
                      ? `${regionTitle(location.request)}: not found, check it or remove it`
                      : regionTitle(location.request)
                  }
                  slotProps={{ secondary: { color: location.notFound ? 'error' : 'text.secondary' } }}
                />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
      {!full && (
        <form onSubmit={onSubmit} noValidate aria-label="Add a provider location">
          <FormErrorSummary errors={summary} submitCount={form.formState.submitCount} />
          <ProviderLocationFields form={form} ids={fieldIds} />
          <Button type="submit" variant="outlined" sx={{ mt: 1 }}>
            {locations.length ? 'Add another location' : 'Add this location'}
          </Button>
        </form>
      )}
      {noneAdded && noneAddedText && (
        <Alert severity="error" sx={{ mt: 2 }} role="alert">
          {noneAddedText}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3 }}>
        <Button
          variant="contained"
          onClick={() => {
            if (locations.length === 0) setNoneAdded(true);
            else onContinue();
          }}
        >
          Continue
        </Button>
      </Stack>
    </Box>
  );
}
