import { Alert } from '@mui/material';
import { isJurisdiction } from '@portal/contracts';
import type { UserRegistrationRequest } from '@portal/contracts/access-requests';
import { useRef } from 'react';
import { useSearchParams } from 'react-router';
import { usePreloadDateField } from '../../components/form/lazy-date-field';
import { RegistrationWizardFrame } from '../../components/form/registration-wizard-frame';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-error';
import { forgetInvitationToken, rememberedInvitationToken, rememberedInvitedEmail } from '../../lib/invitation-token';
import { useRegion } from '../../lib/region/region-context';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useHydrated } from '../../lib/use-hydrated';
import { forgetWizard, useWizard, WIZARD_STEP_PARAM } from '../../lib/use-wizard';
import {
  AccountStep,
  emptyAdministratorValues,
  withoutSecrets,
  type AdministratorFormValues,
} from './components/administrator-step';
import { DoneStep, type ApprovalNote } from './components/done-step';
import { LocationsStep, type LocationDraft, type RequestedLocation } from './components/locations-step';

// The request's schema is built at the form's first validation, and the call (with its answer's schema) loads with
// the call: building the contracts' zod schemas when this module was evaluated was ~1 s of a phone's load (issue 39,
// docs/decisions/0060).
const loadUserRegistrationRequest = (): Promise<typeof UserRegistrationRequest> =>
  import('@portal/contracts/access-requests').then((m) => m.UserRegistrationRequest);
const registerUser = async (request: UserRegistrationRequest) =>
  (await import('./api/registration-api')).registerUser(request);

const stepTitles = ['Provider locations', 'Your account', 'Check your email'] as const;

const steps = ['locations', 'account', 'done'] as const;
type StepName = (typeof steps)[number];
const STORAGE_KEY = 'portal.wizard.register-user';

interface WizardState {
  locations: RequestedLocation[];
  /** The location being typed on the first step, not added yet. */
  draft?: LocationDraft;
  account?: AdministratorFormValues;
  /** The address the verification email went to: set once the account exists (kept in memory only). */
  doneEmail?: string;
  /** Who must approve each location asked for, shown with "Check your email" (kept in memory only). */
  approvals?: ApprovalNote[];
  /** The account is active at once: the invitation's link proved the address (kept in memory only). */
  active?: boolean;
}

/** What the tab keeps of the wizard: never the password, the security answers or the finished step. */
const kept = ({
  doneEmail: _done,
  approvals: _approvals,
  active: _active,
  account,
  ...state
}: WizardState): Partial<WizardState> => ({
  ...state,
  ...(account && { account: withoutSecrets(account) }),
});

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
  // The account step's date of birth loads once the page is used, not while it hydrates.
  usePreloadDateField();
  const { jurisdiction } = useRegion();
  // Opened from an invitation (docs/requirements/staff-accounts.md#invitations): the invited location comes with the
  // account, so the wizard starts at the account; more locations stay possible from the locations step.
  const hydrated = useHydrated();
  const invitationToken = hydrated ? rememberedInvitationToken() : '';
  const invitedEmail = hydrated ? rememberedInvitedEmail() : '';
  // The invitation's link proved the address (the server answers `active`): no verification email to wait for.
  const activeAtOnce = useRef(false);
  const wizard = useWizard<StepName, WizardState>({
    storageKey: STORAGE_KEY,
    steps,
    initial: () => ({ locations: [] }),
    reachable: (name, current) =>
      name === 'locations' ||
      (name === 'account' && (current.locations.length > 0 || !!invitationToken)) ||
      (name === 'done' && !!current.doneEmail),
    kept,
  });
  const { state, setState, go } = wizard;
  const [params] = useSearchParams();
  const step: StepName = invitationToken && !params.has(WIZARD_STEP_PARAM) ? 'account' : wizard.step;
  const index = steps.indexOf(step);

  return (
    <RegistrationWizardFrame
      title="Register as a user"
      intro="For people who work for a provider location that has an administrator."
      otherWizard={{
        question: 'First person from your provider location?',
        href: paths.register.href(),
        label: 'Register as an administrator',
      }}
      notice={
        invitationToken && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="register-invited">
            You are registering with an invitation: the invited provider location is on your account as soon as it
            exists, with no request to wait for. Use the email address the invitation was sent to. You can add other
            locations on the first step.
          </Alert>
        )
      }
      stepTitles={stepTitles}
      index={index}
      moved={wizard.moved}
      heading={step === 'done' && state.active ? 'Your account is ready' : undefined}
      generation={wizard.generation}
    >
      {step === 'locations' && (
        <LocationsStep
          locations={state.locations}
          draft={state.draft}
          region={isJurisdiction(jurisdiction) ? jurisdiction : ''}
          onChange={(locations) => setState((current) => ({ ...current, locations }))}
          onDraft={(draft) => setState((current) => ({ ...current, draft }))}
          onContinue={(locations) => go('account', { locations, draft: undefined })}
        />
      )}
      {step === 'account' && (
        <AccountStep
          label="Your account"
          defaultValues={
            state.account ??
            (invitedEmail
              ? { ...emptyAdministratorValues(), email: invitedEmail, emailConfirmation: invitedEmail }
              : emptyAdministratorValues())
          }
          schema={loadUserRegistrationRequest}
          toRequest={(values) => ({
            ...values,
            locations: state.locations.map((l) => l.request),
            ...(invitationToken ? { invitationToken } : {}),
          })}
          register={async (request) => {
            try {
              const answer = await registerUser(request);
              activeAtOnce.current = answer.active === true;
              return answer;
            } catch (err) {
              const missing = notFoundIndexes(err);
              if (!missing) throw err;
              // A location matched nothing: back to the locations, that one marked.
              go('locations', {
                locations: state.locations.map((l, i) => ({ ...l, notFound: missing.has(i) })),
              });
              return false;
            }
          }}
          onValues={(account) => setState((current) => ({ ...current, account }))}
          onRegistered={(account) => {
            forgetInvitationToken();
            forgetWizard(STORAGE_KEY);
            // A fresh wizard behind the finished one: Back from "Check your email" starts again.
            setState({
              locations: [],
              doneEmail: account.email,
              ...(activeAtOnce.current ? { active: true } : {}),
              approvals: state.locations
                .filter((l) => l.name)
                .map((l) => ({ location: l.name!, administrators: l.administrators ?? [] })),
            });
            go('done');
          }}
          onBack={(account) => go('locations', { account })}
        />
      )}
      {step === 'done' && <DoneStep email={state.doneEmail ?? ''} approvals={state.approvals} active={state.active} />}
    </RegistrationWizardFrame>
  );
}
