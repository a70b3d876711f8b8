import { Alert, Box, Link, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { isJurisdiction } from '@portal/contracts';
import { UserRegistrationRequest } from '@portal/contracts/access-requests';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { StepHeading } from '../../components/form/step-heading';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { forgetInvitationToken, rememberedInvitationToken } from '../../lib/invitation-token';
import { useRegion } from '../../lib/region/region-context';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { registerUser } from './api/registration-api';
import { AccountStep, emptyAdministratorValues, type AdministratorFormValues } from './components/administrator-step';
import { DoneStep } from './components/done-step';
import { LocationsStep, type RequestedLocation } from './components/locations-step';

const stepTitles = ['Provider locations', 'Your account', 'Check your email'] as const;

interface WizardState {
  step: number;
  /** False until the user has moved between steps: the first heading does not take focus on page load. */
  moved: boolean;
  locations: RequestedLocation[];
  account?: AdministratorFormValues;
}

/** The indexes of the locations a refusal says matched nothing (`fieldErrors['locations.<i>']`). */
function notFoundIndexes(err: unknown): Set<number> | undefined {
  if (!(err instanceof ApiError) || err.code !== 'Provider_Not_Found') return undefined;
  const indexes = Object.keys(err.fieldErrors ?? {}).flatMap((path) => {
    const match = /^locations\.(\d+)$/.exec(path);
    return match ? [Number(match[1])] : [];
  });
  return new Set(indexes);
}

/**
 * `/register/user` (docs/requirements/staff-accounts.md#end-users): a person of a provider office creates an account
 * and asks for access to the locations they work for; each location's administrator approves. No financial facts:
 * the approval is the proof. One step per screen, as `/register`; each step's values are kept here.
 */
export function RegisterUserPage() {
  useDocumentTitle('Register as a user');
  const { jurisdiction } = useRegion();
  const [state, setState] = useState<WizardState>({ step: 0, moved: false, locations: [] });
  const go = (step: number, changes: Partial<WizardState> = {}) =>
    setState((current) => ({ ...current, ...changes, step, moved: true }));
  // Opened from an invitation (docs/requirements/staff-accounts.md#invitations): the invited location comes with the
  // account, so the wizard starts at the account; more locations stay possible from the locations step.
  const hydrated = useHydrated();
  const invitationToken = hydrated ? rememberedInvitationToken() : '';
  const step = invitationToken && !state.moved ? 1 : state.step;

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Register as a user
      </Typography>
      <Typography sx={{ mb: 2 }}>
        For people who work for a provider location that has an administrator.
        {step < 2 && (
          <>
            {' '}
            First person from your provider location?{' '}
            <Link component={RouterLink} to={paths.register.href()}>
              Register as an administrator
            </Link>
            . Already registered?{' '}
            <Link component={RouterLink} to={paths.login.href()}>
              Log in
            </Link>
            .
          </>
        )}
      </Typography>
      {invitationToken && step < 2 && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="register-invited">
          You are registering with an invitation: the invited provider location is on your account as soon as it exists,
          with no request to wait for. Use the email address the invitation was sent to. You can add other locations on
          the first step.
        </Alert>
      )}
      <Stepper activeStep={step} alternativeLabel sx={{ mb: 2 }} aria-hidden="true">
        {stepTitles.map((title) => (
          <Step key={title}>
            <StepLabel sx={{ '& .MuiStepLabel-label': { display: { xs: 'none', sm: 'block' } } }}>{title}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <StepHeading key={step} focus={state.moved} progress={{ step: step + 1, of: stepTitles.length }}>
        {stepTitles[step]}
      </StepHeading>

      {step === 0 && (
        <LocationsStep
          locations={state.locations}
          region={isJurisdiction(jurisdiction) ? jurisdiction : ''}
          onChange={(locations) => setState((current) => ({ ...current, locations }))}
          onContinue={() => go(1)}
        />
      )}
      {step === 1 && (
        <AccountStep
          label="Your account"
          defaultValues={state.account ?? emptyAdministratorValues()}
          schema={UserRegistrationRequest}
          toRequest={(values) => ({
            ...values,
            locations: state.locations.map((l) => l.request),
            ...(invitationToken ? { invitationToken } : {}),
          })}
          register={async (request) => {
            try {
              return await registerUser(request);
            } catch (err) {
              const missing = notFoundIndexes(err);
              if (!missing) throw err;
              // A location matched nothing: back to the locations, that one marked.
              setState((current) => ({
                ...current,
                step: 0,
                moved: true,
                locations: current.locations.map((l, i) => ({ ...l, notFound: missing.has(i) })),
              }));
              return false;
            }
          }}
          onRegistered={(account) => {
            forgetInvitationToken();
            go(2, { account });
          }}
          onBack={(account) => go(0, { account })}
        />
      )}
      {step === 2 && <DoneStep email={state.account?.email ?? ''} />}
    </Box>
  );
}
