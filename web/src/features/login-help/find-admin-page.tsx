import { zodResolver } from '@hookform/resolvers/zod';
import { Link, List, ListItem, ListItemText, Typography } from '@mui/material';
import { FindAdminRequest, type LocationAdministrator } from '@portal/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { FormErrorSummary } from '../../components/form/form-error-summary';
import { FormOutcome } from '../../components/form/form-outcome';
import { FormSubmitButton } from '../../components/form/form-submit-button';
import { ProviderIdentifierFields } from '../../components/form/provider-identifier-fields';
import { useApiFormSubmit } from '../../components/form/use-api-form-submit';
import { paths } from '../../config/paths';
import { findAdministrators } from './api/login-help-api';
import { LoginHelpLayout } from './components/login-help-layout';

const fieldIds = { npi: 'find-admin-npi', ptan: 'find-admin-ptan', tin: 'find-admin-tin' };

function Administrators({ administrators }: { administrators: LocationAdministrator[] }) {
  if (administrators.length === 0)
    return (
      <FormOutcome title="This location has no administrator yet" severity="info">
        <Typography gutterBottom>Nobody has registered as this location&apos;s administrator.</Typography>
        <Link component={RouterLink} to={paths.register.href()}>
          Register as its administrator
        </Link>
      </FormOutcome>
    );
  return (
    <FormOutcome
      title={administrators.length === 1 ? "This location's administrator" : "This location's administrators"}
      severity="info"
    >
      <Typography>Contact them to be added to the location, or to have your account unlocked.</Typography>
      <List dense data-testid="administrators">
        {administrators.map((admin) => (
          <ListItem key={`${admin.firstName} ${admin.lastName} ${admin.maskedEmail}`} disableGutters>
            <ListItemText primary={`${admin.firstName} ${admin.lastName}`} secondary={admin.maskedEmail} />
          </ListItem>
        ))}
      </List>
    </FormOutcome>
  );
}

/**
 * `/find-admin` (docs/requirements/portal.md#find-my-administrator): NPI, PTAN and TIN → the location's
 * administrators' names and masked emails. No match gets the CMS text of one code, whichever identifier was wrong.
 */
export function FindAdminPage() {
  const [administrators, setAdministrators] = useState<LocationAdministrator[]>();
  const form = useForm<FindAdminRequest>({
    resolver: zodResolver(FindAdminRequest),
    defaultValues: { npi: '', ptan: '', tin: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
    submit: async (values) => {
      setAdministrators(undefined);
      setAdministrators((await findAdministrators(values)).administrators);
    },
  });

  return (
    <LoginHelpLayout
      title="Find my administrator"
      intro="Each provider location has an administrator who manages its portal users. Enter the location's identifiers to see who it is."
    >
      <form onSubmit={onSubmit} noValidate aria-label="Find my administrator">
        <FormErrorSummary errors={summary} submitCount={submitCount} />
        <ProviderIdentifierFields form={form} ids={fieldIds} />
        <FormSubmitButton submitting={isSubmitting} sx={{ mb: 3 }}>
          Find administrator
        </FormSubmitButton>
      </form>
      {administrators && <Administrators administrators={administrators} />}
    </LoginHelpLayout>
  );
}
