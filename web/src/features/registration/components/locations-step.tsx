import { Alert, Box, Button, Link, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import type { LocationIdentifiers } from '@portal/contracts/access-requests';
import { MAX_REGISTRATION_LOCATIONS } from '@portal/contracts/field-limits';
import { isJurisdiction, selectableJurisdictions } from '@portal/contracts';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import {
  ProviderLocationFields,
  providerLocationResolver,
  type ProviderLocationValues,
} from '../../../components/form/provider-location-fields';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-error';
import { useErrorMessage } from '../../../lib/error-messages';
import { useReportedValues } from '../../../lib/use-wizard';

// The lookup loads with the first location added (docs/decisions/0060).
const lookUpLocation = async (body: { npi: string; ptan: string; tin: string }) =>
  (await import('../api/registration-api')).lookUpLocation(body);

/**
 * A location the person added, as the request names it; `notFound`: the server matched nothing to it. `name` and
 * `hasAdministrator` come from the public lookup when it answered (absent when it could not: the list then shows
 * the identifiers only).
 */
export interface RequestedLocation {
  request: z.output<typeof LocationIdentifiers>;
  notFound?: boolean;
  name?: string;
  hasAdministrator?: boolean;
  /** The administrators' names (who will approve the request). */
  administrators?: string[];
}

/** The location being typed, not added yet. */
export type LocationDraft = ProviderLocationValues;

const isEmptyDraft = (values: LocationDraft) => !values.npi.trim() && !values.ptan.trim() && !values.tin.trim();

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

/** A location nobody administers yet: nobody can approve the request, and how to become its administrator. */
function NoAdministratorNote() {
  return (
    <Typography component="span" variant="body2" data-testid="location-without-administrator" sx={{ display: 'block' }}>
      This location has no administrator yet, so nobody can approve your request. If you are authorized for it,{' '}
      <Link component={RouterLink} to={paths.register.href()}>
        register as its administrator
      </Link>{' '}
      instead.
    </Typography>
  );
}

/**
 * Step 1 of `/register/user` (docs/requirements/staff-accounts.md#end-users): the provider locations the person
 * works for, each by NPI, PTAN, TIN and jurisdiction with its line of business. Checked as they are added (the list
 * shows each location's name and says when it has no administrator to approve it); Continue adds the location typed
 * in. The server matches them when the account is created and a location it cannot find comes back here, marked.
 */
export function LocationsStep({
  locations,
  draft,
  region,
  onChange,
  onDraft,
  onContinue,
}: {
  locations: RequestedLocation[];
  /** What was typed and not added yet (kept by the wizard, use-wizard.ts). */
  draft?: LocationDraft;
  /** The region the site shows (pre-fills the choice). */
  region: string;
  onChange: (locations: RequestedLocation[]) => void;
  onDraft?: (draft: LocationDraft) => void;
  /** Goes on with the locations (the one typed in added). */
  onContinue: (locations: RequestedLocation[]) => void;
}) {
  const empty: ProviderLocationValues = { npi: '', ptan: '', tin: '', region: isJurisdiction(region) ? region : '' };
  const [noneAdded, setNoneAdded] = useState(false);
  /** Set by Continue with a location typed in: once it is added, the wizard goes on. */
  const continueAfterAdd = useRef(false);
  const noneAddedText = useErrorMessage(noneAdded ? 'Access_Request_Location_Required' : undefined).data;
  const notFoundText = useErrorMessage(locations.some((l) => l.notFound) ? 'Provider_Not_Found' : undefined).data;
  const full = locations.length >= MAX_REGISTRATION_LOCATIONS;
  const state = useApiForm<ProviderLocationValues, z.output<typeof LocationIdentifiers>>({
    resolver,
    defaultValues: draft ?? empty,
    fieldIds,
    submit: async (request) => {
      const same = (l: RequestedLocation) =>
        l.request.npi === request.npi &&
        l.request.ptan === request.ptan &&
        l.request.jurisdiction === request.jurisdiction &&
        l.request.lineOfBusiness === request.lineOfBusiness;
      let next = locations;
      if (!locations.some(same)) {
        const found = await lookUpLocation({ npi: request.npi, ptan: request.ptan, tin: request.tin }).catch(
          (err: unknown) => {
            // No match is said next to the fields; a busy or throttled lookup only leaves the name out.
            if (err instanceof ApiError && err.code === 'Find_Admin_No_Match') throw err;
            return undefined;
          },
        );
        next = [
          ...locations,
          {
            request,
            ...(found && {
              name: found.locationName,
              hasAdministrator: found.administrators.length > 0,
              administrators: found.administrators.map((a) => `${a.firstName} ${a.lastName}`),
            }),
          },
        ];
        onChange(next);
      }
      setNoneAdded(false);
      state.form.reset({ ...empty, region: state.form.getValues('region') });
      if (continueAfterAdd.current) onContinue(next);
    },
  });
  const { form, onSubmit } = state;
  useReportedValues(form, onDraft);

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
                    aria-label={`Remove location ${location.name ? `${location.name}, ` : ''}NPI ${location.request.npi}, PTAN ${location.request.ptan}`}
                    onClick={() => onChange(locations.filter((_, i) => i !== index))}
                  >
                    Remove
                  </Button>
                }
                sx={{ pr: 12 }}
              >
                <ListItemText
                  primary={
                    <>
                      {location.name && (
                        <Box component="span" sx={{ display: 'block', fontWeight: 700 }}>
                          {location.name}
                        </Box>
                      )}
                      {`NPI ${location.request.npi}, PTAN ${location.request.ptan}`}
                    </>
                  }
                  secondary={
                    <>
                      {location.notFound
                        ? `${regionTitle(location.request)}: not found, check it or remove it`
                        : regionTitle(location.request)}
                      {location.hasAdministrator === false && !location.notFound && <NoAdministratorNote />}
                    </>
                  }
                  slotProps={{ secondary: { color: location.notFound ? 'error' : 'text.secondary' } }}
                />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
      {!full && (
        <ApiForm
          // Submitted by its own button (or Enter): the location is added and the step stays.
          form={{
            ...state,
            onSubmit: (event) => {
              continueAfterAdd.current = false;
              return onSubmit(event);
            },
          }}
          label="Add a provider location"
        >
          <ProviderLocationFields form={form} ids={fieldIds} />
          <Button type="submit" variant="outlined" sx={{ mt: 1 }}>
            {locations.length ? 'Add another location' : 'Add this location'}
          </Button>
        </ApiForm>
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
            // A location typed in and not added: Continue adds it (its problems shown, if any) and goes on.
            if (!full && !isEmptyDraft(form.getValues())) {
              continueAfterAdd.current = true;
              void onSubmit();
            } else if (locations.length === 0) setNoneAdded(true);
            else onContinue(locations);
          }}
        >
          Continue
        </Button>
      </Stack>
    </Box>
  );
}
