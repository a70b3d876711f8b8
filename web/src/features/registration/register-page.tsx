import { Box, Link, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { isJurisdiction } from '@portal/contracts';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';
import { useRegion } from '../../lib/region/region-context';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  AdministratorStep,
  emptyAdministratorValues,
  type AdministratorFormValues,
} from './components/administrator-step';
import { AuthorityStep, emptyAuthorityValues, type AuthorityFormValues } from './components/authority-step';
import { ProviderStep, type ProviderFormValues, type ValidatedLocation } from './components/provider-step';
import { StepHeading } from '../../components/form/step-heading';
import { DoneStep } from './components/done-step';

const stepTitles = ['Provider location', 'Authority', 'Administrator', 'Check your email'] as const;

interface WizardState {
  step: number;
  /** False until the user has moved between steps: the first heading does not take focus on page load. */
  moved: boolean;
  provider: ProviderFormValues;
  location?: ValidatedLocation;
  authority?: AuthorityFormValues;
  registrationToken?: string;
  administrator?: AdministratorFormValues;
}

/**
 * `/register` (docs/requirements/portal.md#administrator-self-registration): the first person of a provider
 * location registers as its administrator, one step per screen with the progress shown. Each step's values are
 * kept here, so Back shows them again.
 */
export function RegisterPage() {
  useDocumentTitle('Register as an administrator');
  const { jurisdiction } = useRegion();
  const [state, setState] = useState<WizardState>(() => ({
    step: 0,
    moved: false,
    provider: { npi: '', ptan: '', tin: '', region: isJurisdiction(jurisdiction) ? jurisdiction : '' },
  }));
  const go = (step: number, changes: Partial<WizardState> = {}) =>
    setState((current) => ({ ...current, ...changes, step, moved: true }));

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Register as an administrator
      </Typography>
      <Typography sx={{ mb: 2 }}>
        The first person to register for a provider location becomes its administrator.
        {state.step < 3 && (
          <>
            {' '}
            Your location already has an administrator?{' '}
            <Link component={RouterLink} to={paths.registerUser.href()}>
              Register as a user
            </Link>
            . Already registered?{' '}
            <Link component={RouterLink} to={paths.login.href()}>
              Log in
            </Link>
            .
          </>
        )}
      </Typography>
      <Stepper activeStep={state.step} alternativeLabel sx={{ mb: 2 }} aria-hidden="true">
        {stepTitles.map((title) => (
          <Step key={title}>
            <StepLabel sx={{ '& .MuiStepLabel-label': { display: { xs: 'none', sm: 'block' } } }}>{title}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <StepHeading key={state.step} focus={state.moved} progress={{ step: state.step + 1, of: stepTitles.length }}>
        {stepTitles[state.step]}
      </StepHeading>

      {state.step === 0 && (
        <ProviderStep
          defaultValues={state.provider}
          validated={state.location}
          onValidated={(provider, location) => setState((current) => ({ ...current, provider, location }))}
          onConfirm={() => go(1)}
        />
      )}
      {state.step === 1 && state.location && (
        <AuthorityStep
          defaultValues={state.authority ?? emptyAuthorityValues(state.location.npi)}
          validationToken={state.location.validationToken}
          onVerified={(authority, registrationToken) => go(2, { authority, registrationToken })}
          onBack={(authority) => go(0, { authority })}
        />
      )}
      {state.step === 2 && state.registrationToken && (
        <AdministratorStep
          defaultValues={state.administrator ?? emptyAdministratorValues()}
          registrationToken={state.registrationToken}
          onRegistered={(administrator) => go(3, { administrator })}
          onBack={(administrator) => go(1, { administrator })}
        />
      )}
      {state.step === 3 && <DoneStep email={state.administrator?.email ?? ''} />}
    </Box>
  );
}
