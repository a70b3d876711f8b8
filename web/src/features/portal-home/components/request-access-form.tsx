import { Alert, Button, Typography } from '@mui/material';
import { isJurisdiction } from '@portal/contracts';
import type { LocationIdentifiers } from '@portal/contracts/access-requests';
import { useState } from 'react';
import type { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import {
  ProviderLocationFields,
  providerLocationResolver,
  type ProviderLocationValues,
} from '../../../components/form/provider-location-fields';
import { useRegion } from '../../../lib/region/region-context';
import { requestAccess } from '../api/access-requests-api';

const fieldIds = {
  npi: 'access-request-npi',
  ptan: 'access-request-ptan',
  tin: 'access-request-tin',
  region: 'access-request-region',
} as const;
// The schema is built at the form's first validation: the contracts' zod schemas evaluated while the page hydrates
// were part of its load (issue 39, docs/decisions/0060).
const resolver = providerLocationResolver<ProviderLocationValues, typeof LocationIdentifiers>(() =>
  import('@portal/contracts/access-requests').then((m) => m.LocationIdentifiers),
);

/** Ask for access to a further location (a billing service works for many offices). */
export function RequestAccessForm({ onDone }: { onDone: () => void }) {
  const { jurisdiction } = useRegion();
  const empty: ProviderLocationValues = {
    npi: '',
    ptan: '',
    tin: '',
    region: isJurisdiction(jurisdiction) ? jurisdiction : '',
  };
  const [sent, setSent] = useState<string>();
  const form = useApiForm<ProviderLocationValues, z.output<typeof LocationIdentifiers>>({
    resolver,
    defaultValues: empty,
    fieldIds,
    submit: async (request) => {
      const answer = await requestAccess(request);
      setSent(answer.request.location.legalName);
      form.form.reset({ ...empty, region: form.form.getValues('region') });
      onDone();
    },
  });
  return (
    <ApiForm
      form={form}
      labelledBy="access-request-form-title"
      heading={
        <>
          <Typography component="h3" variant="h6" id="access-request-form-title" sx={{ mt: 2 }}>
            Request access to another location
          </Typography>
          <Typography sx={{ mb: 1 }}>
            The location&apos;s administrator approves your access. No payment details are needed.
          </Typography>
          {sent && (
            <Alert severity="success" sx={{ mb: 2 }} role="status">
              Your request for {sent} is sent to its administrator.
            </Alert>
          )}
        </>
      }
    >
      <ProviderLocationFields form={form.form} ids={fieldIds} />
      <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 1 }}>
        Request access
      </Button>
    </ApiForm>
  );
}
