import { Button, Link, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { FindAdminRequest, FindAdminResponse } from '@portal/contracts';
import { useState } from 'react';
import { findAdminPrefillOf } from '../../lib/find-admin-prefill';
import { useHydrated } from '../../lib/use-hydrated';
import { Link as RouterLink, useLocation } from 'react-router';
import { ApiForm, useApiForm } from '../../components/form/api-form';
import { FormOutcome } from '../../components/form/form-outcome';
import { FormSubmitButton } from '../../components/form/form-submit-button';
import { ProviderIdentifierFields } from '../../components/form/provider-identifier-fields';
import { paths } from '../../config/paths';
import { LoginHelpLayout } from './components/login-help-layout';
import { FindAdminContactForm } from './find-admin-contact-form';

type Lookup = FindAdminResponse['data'];

// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const loginHelpApi = () => import('./api/login-help-api');
const schema = () => import('@portal/contracts/find-admin').then((m) => m.FindAdminRequest);

const fieldIds = { npi: 'find-admin-npi', ptan: 'find-admin-ptan', tin: 'find-admin-tin' };

function Administrators({ lookup: { administrators, contactToken } }: { lookup: Lookup }) {
  const [asking, setAsking] = useState(false);
  if (administrators.length === 0)
    return (
      <FormOutcome title="This location has no administrator yet" severity="info">
        <Typography gutterBottom>Nobody has registered as this location&apos;s administrator.</Typography>
        <Link component={RouterLink} to={paths.register.href()}>
          Register as its administrator
        </Link>
      </FormOutcome>
    );
  const plural = administrators.length > 1;
  return (
    <>
      <FormOutcome title={plural ? "This location's administrators" : "This location's administrator"} severity="info">
        <Typography>
          Administrators add people to the location and unlock their accounts. Ask to be contacted: we email your
          request on, and their address stays private.
        </Typography>
        <List dense data-testid="administrators">
          {administrators.map((admin) => (
            <ListItem key={`${admin.firstName} ${admin.lastName} ${admin.maskedEmail}`} disableGutters>
              <ListItemText primary={`${admin.firstName} ${admin.lastName}`} secondary={admin.maskedEmail} />
            </ListItem>
          ))}
        </List>
        {contactToken && !asking && (
          <Button variant="contained" onClick={() => setAsking(true)}>
            {plural ? 'Ask these administrators to contact me' : 'Ask this administrator to contact me'}
          </Button>
        )}
      </FormOutcome>
      {contactToken && asking && <FindAdminContactForm contactToken={contactToken} plural={plural} />}
    </>
  );
}

/**
 * `/find-admin` (docs/requirements/portal.md#find-my-administrator): NPI, PTAN and TIN → the location's
 * administrators' names and masked emails, and a way to ask them to contact the visitor (find-admin-contact-form). No match gets the CMS text of one code, whichever identifier was wrong.
 */
export function FindAdminPage() {
  const [lookup, setLookup] = useState<Lookup>();
  // Sent here by the registration with a location's identifiers (a link's history state; none on a server render).
  const hydrated = useHydrated();
  const { state } = useLocation();
  const prefill = hydrated ? findAdminPrefillOf(state) : undefined;
  const form = useApiForm<FindAdminRequest>({
    schema,
    defaultValues: prefill ?? { npi: '', ptan: '', tin: '' },
    fieldIds,
    submit: async (values) => {
      setLookup(undefined);
      setLookup(await (await loginHelpApi()).findAdministrators(values));
    },
  });

  return (
    <LoginHelpLayout
      title="Find my administrator"
      intro="Each provider location has an administrator who manages its portal users. Enter the location's identifiers to see who it is."
    >
      <ApiForm form={form} label="Find my administrator">
        <ProviderIdentifierFields form={form.form} ids={fieldIds} />
        <FormSubmitButton submitting={form.submitting} sx={{ mb: 3 }}>
          Find administrator
        </FormSubmitButton>
      </ApiForm>
      {lookup && <Administrators key={lookup.contactToken ?? 'none'} lookup={lookup} />}
    </LoginHelpLayout>
  );
}
