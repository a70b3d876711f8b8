import { isJurisdiction } from '@portal/contracts';
import { paths } from '../../config/paths';
import { useRegion } from '../../lib/region/region-context';
import { useDocumentTitle } from '../../lib/use-document-title';
import { forgetWizard, useWizard } from '../../lib/use-wizard';
import {
  AdministratorStep,
  emptyAdministratorValues,
  withoutSecrets,
  type AdministratorFormValues,
} from './components/administrator-step';
import { AuthorityStep, emptyAuthorityValues, type AuthorityFormValues } from './components/authority-step';
import { ProviderStep, type ProviderFormValues, type ValidatedLocation } from './components/provider-step';
import { usePreloadDateField } from '../../components/form/lazy-date-field';
import { RegistrationWizardFrame } from '../../components/form/registration-wizard-frame';
import { DoneStep } from './components/done-step';

const stepTitles = ['Provider location', 'Authority', 'Administrator', 'Check your email'] as const;
const steps = ['location', 'authority', 'administrator', 'done'] as const;
type StepName = (typeof steps)[number];
const STORAGE_KEY = 'portal.wizard.register';

interface WizardState {
  provider: ProviderFormValues;
  location?: ValidatedLocation;
  authority?: AuthorityFormValues;
  registrationToken?: string;
  administrator?: AdministratorFormValues;
  /** The address the verification email went to: set once the account exists (kept in memory only). */
  doneEmail?: string;
}

const reachable = (step: StepName, state: WizardState): boolean =>
  step === 'location' ||
  (step === 'authority' && !!state.location) ||
  (step === 'administrator' && !!state.location && !!state.registrationToken) ||
  (step === 'done' && !!state.doneEmail);

/** What the tab keeps of the wizard: never the password, the security answers or the finished step. */
const kept = ({ doneEmail: _done, administrator, ...state }: WizardState): Partial<WizardState> => ({
  ...state,
  ...(administrator && { administrator: withoutSecrets(administrator) }),
});

/**
 * `/register` (docs/requirements/portal.md#administrator-self-registration): the first person of a provider
 * location registers as its administrator, one step per screen with the progress shown. Each step is a history
 * entry and its values are kept for the tab (use-wizard.ts), so Back, Forward and a refresh show them again.
 */
export function RegisterPage() {
  useDocumentTitle('Register as an administrator');
  // The account step's date of birth is ready by the time the step shows (it loads with the page's first use).
  usePreloadDateField();
  const { jurisdiction } = useRegion();
  const wizard = useWizard<StepName, WizardState>({
    storageKey: STORAGE_KEY,
    steps,
    initial: () => ({
      provider: { npi: '', ptan: '', tin: '', region: isJurisdiction(jurisdiction) ? jurisdiction : '' },
    }),
    reachable,
    kept,
  });
  const { state, setState, go } = wizard;
  const index = steps.indexOf(wizard.step);

  return (
    <RegistrationWizardFrame
      title="Register as an administrator"
      intro="The first person to register for a provider location becomes its administrator."
      otherWizard={{
        question: 'Your location already has an administrator?',
        href: paths.registerUser.href(),
        label: 'Register as a user',
      }}
      stepTitles={stepTitles}
      index={index}
      moved={wizard.moved}
      generation={wizard.generation}
    >
      {wizard.step === 'location' && (
        <ProviderStep
          defaultValues={state.provider}
          validated={state.location}
          onValues={(provider) => setState((current) => ({ ...current, provider }))}
          onValidated={(provider, location) => setState((current) => ({ ...current, provider, location }))}
          onConfirm={() => go('authority')}
        />
      )}
      {wizard.step === 'authority' && state.location && (
        <AuthorityStep
          defaultValues={state.authority ?? emptyAuthorityValues(state.location.npi)}
          validationToken={state.location.validationToken}
          onValues={(authority) => setState((current) => ({ ...current, authority }))}
          onVerified={(authority, registrationToken) => go('administrator', { authority, registrationToken })}
          onBack={(authority) => go('location', { authority })}
        />
      )}
      {wizard.step === 'administrator' && state.registrationToken && (
        <AdministratorStep
          defaultValues={state.administrator ?? emptyAdministratorValues()}
          registrationToken={state.registrationToken}
          onValues={(administrator) => setState((current) => ({ ...current, administrator }))}
          onRegistered={(administrator) => {
            forgetWizard(STORAGE_KEY);
            // A fresh wizard behind the finished one: Back from "Check your email" starts again.
            setState((current) => ({
              provider: { npi: '', ptan: '', tin: '', region: current.provider.region },
              doneEmail: administrator.email,
            }));
            go('done');
          }}
          onBack={(administrator) => go('authority', { administrator })}
        />
      )}
      {wizard.step === 'done' && <DoneStep email={state.doneEmail ?? ''} />}
    </RegistrationWizardFrame>
  );
}
