import { Box, Button, Link, Typography } from '@mui/material';
import type { SelfReactivationRequest } from '@portal/contracts';
import { useState } from 'react';
import { forgetWizard, useReportedValues, useWizard } from '../../lib/use-wizard';
import { Link as RouterLink } from 'react-router';
import { DateOfBirthField } from '../../components/form/form-date-field';
import { useApiForm } from '../../components/form/api-form';
import { ApiFormStep } from '../../components/form/api-form-step';
import { FormOutcome } from '../../components/form/form-outcome';
import { FormField } from '../../components/form/form-field';
import { NewPasswordFields } from '../../components/form/new-password-fields';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-error';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { isDeadEnd } from './components/login-help-errors';
import { LoginHelpLayout } from './components/login-help-layout';
import { SecurityQuestionAnswer } from './components/security-question-text';

type StepRequest<S> = Extract<SelfReactivationRequest, { step: S }>;
type StartValues = Pick<StepRequest<'request-code'>, 'username' | 'dob'>;
type CodeValues = Pick<StepRequest<'verify-code'>, 'username' | 'code'>;
type AnswerValues = Pick<StepRequest<'verify-answer'>, 'answer'>;
type PasswordValues = { newPassword: string };

const messages: Record<string, string> = {
  username: 'Enter your username.',
  dob: 'Date of Birth is invalid',
  code: 'Enter the code from the email we sent you.',
  answer: 'Enter the answer to your security question.',
  newPassword: 'Enter a new password of at least 15 characters.',
};
/** Each step's schema, from the request the server checks, built at the first step's first validation. */
let steps: ReturnType<typeof buildStepSchemas> | undefined;
async function buildStepSchemas() {
  const [{ z }, { SelfReactivationRequest }, { PasswordSchema }] = await Promise.all([
    import('zod/mini'),
    import('@portal/contracts/login-help'),
    import('@portal/contracts/password-policy'),
  ]);
  const [requestCodeStep, verifyCodeStep, verifyAnswerStep] = SelfReactivationRequest.def.options;
  return {
    start: z.pick(requestCodeStep, { username: true, dob: true }),
    code: z.pick(verifyCodeStep, { username: true, code: true }),
    answer: z.pick(verifyAnswerStep, { answer: true }),
    password: z.object({ newPassword: PasswordSchema }),
  };
}
const stepSchemas = () => (steps ??= buildStepSchemas());
const stepSchema = (name: keyof Awaited<ReturnType<typeof buildStepSchemas>>) => async () =>
  (await stepSchemas())[name];
const stepMessage = (field: string) => messages[field];
// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const loginHelpApi = () => import('./api/login-help-api');
const selfReactivation = async (body: SelfReactivationRequest) => (await loginHelpApi()).selfReactivation(body);
/** A step's call: a refusal that ends the flow (`CONTACT_CODES`, a dead link) goes to `onStop`, not the summary. */
async function stepCall<T>(call: () => Promise<T>, onStop: (err: ApiError) => void, onDone: (answer: T) => void) {
  let answer: T;
  try {
    answer = await call();
  } catch (err) {
    if (err instanceof ApiError && (CONTACT_CODES[err.code] || isDeadEnd(err))) return onStop(err);
    throw err;
  }
  onDone(answer);
}

/** Codes that end the flow: the account cannot be reactivated online, or the code no longer works. */
const CONTACT_CODES: Record<string, { title: string; findAdmin: boolean }> = {
  Reactivation_Locked_Contact_Help_Desk: { title: 'Contact the help desk', findAdmin: false },
  Reactivation_Disabled_Contact_Administrator: { title: 'Contact your administrator', findAdmin: true },
};

type Progress = { username: string; dob: string; code?: string; answer?: string; questionId?: string };
/** The steps, each a history entry (`/reactivate?step=code`, the email's link); the outcomes replace the step. */
const stepNames = ['start', 'code', 'answer', 'password'] as const;
type StepName = (typeof stepNames)[number];
const STEP_COUNT = 4;
const STORAGE_KEY = 'portal.wizard.reactivate';
/** The code step asks for no more than the code; opened from the email in another tab, it asks the username too. */
const reachable = (step: StepName, progress: Progress) =>
  step === 'start' ||
  step === 'code' ||
  (step === 'answer' && !!progress.code) ||
  (step === 'password' && !!progress.code && !!progress.answer);
/** The tab keeps the username and date of birth, never the code or the answer. */
const kept = ({ username, dob }: Progress): Partial<Progress> => ({ username, dob });

/** What a step is given: the flow so far, whether its heading takes the focus, what comes next and what ends it. */
interface StepProps<Next extends unknown[]> {
  progress: Progress;
  focus: boolean;
  onNext: (...next: Next) => void;
  onStop: (err: ApiError) => void;
}

/** Username and date of birth → a code by email. */
function StartStep({
  progress,
  focus,
  onValues,
  onNext,
}: Omit<StepProps<[progress: Progress]>, 'onStop'> & { onValues: (values: StartValues) => void }) {
  const ids = { username: 'reactivate-username', dob: 'reactivate-dob' };
  const form = useApiForm<StartValues>({
    schema: stepSchema('start'),
    schemaMessage: stepMessage,
    defaultValues: { username: progress.username, dob: progress.dob },
    fieldIds: ids,
    submit: async (values) => {
      await selfReactivation({ step: 'request-code', ...values });
      onNext(values);
    },
  });
  useReportedValues(form.form, onValues);
  return (
    <ApiFormStep
      form={form}
      label="Find your account"
      title="Find your account"
      progress={{ step: 1, of: STEP_COUNT }}
      focus={focus}
      submitLabel="Email me a code"
    >
      <FormField id={ids.username} name="username" label="Username" autoComplete="username" required />
      <DateOfBirthField id={ids.dob} name="dob" />
    </ApiFormStep>
  );
}

/** The emailed code; a new one can be asked for. */
function CodeStep({
  progress,
  focus,
  onNext,
  onStop,
  onStartAgain,
}: StepProps<[username: string, code: string, questionId?: string]> & {
  /** A new code needs the date of birth this tab does not hold: the first step again, the username kept. */
  onStartAgain: (username: string) => void;
}) {
  // Opened from the email in a tab that does not know the username: the step asks for it.
  const [askUsername] = useState(!progress.username);
  const ids = { username: 'reactivate-code-username', code: 'reactivate-code' };
  const [resent, setResent] = useState(0);
  const form = useApiForm<CodeValues>({
    schema: stepSchema('code'),
    schemaMessage: stepMessage,
    defaultValues: { username: progress.username, code: '' },
    fieldIds: ids,
    submit: ({ username, code }) =>
      stepCall(
        () => selfReactivation({ step: 'verify-code', username, code }),
        onStop,
        (answer) => onNext(username, code, answer.questionId),
      ),
    clearOnError: 'code',
  });
  const resend = async () => {
    if (!progress.dob) return onStartAgain(form.form.getValues('username'));
    await selfReactivation({ step: 'request-code', username: progress.username, dob: progress.dob }).catch(() => {});
    setResent((n) => n + 1);
  };
  return (
    <ApiFormStep
      form={form}
      label="Enter the code"
      title="Enter the code we emailed you"
      progress={{ step: 2, of: STEP_COUNT }}
      focus={focus}
      submitLabel="Continue"
      after={
        <Button onClick={() => void resend()} sx={{ mt: 2, ml: 2 }}>
          Send a new code
        </Button>
      }
    >
      <Typography>
        If the username and date of birth match an account, we emailed a code to the address on file. It works for 15
        minutes.
      </Typography>
      {askUsername && <FormField id={ids.username} name="username" label="Username" autoComplete="username" required />}
      <FormField id={ids.code} name="code" label="Code from the email" autoComplete="one-time-code" required />
      <Typography role="status" sx={{ mt: 1 }}>
        {resent > 0 ? 'We sent a new code. Only the newest code works.' : ''}
      </Typography>
    </ApiFormStep>
  );
}

/** One of the user's security questions. */
function AnswerStep({ progress, focus, onNext, onStop }: StepProps<[answer: string]>) {
  const ids = { answer: 'reactivate-answer' };
  const form = useApiForm<AnswerValues>({
    schema: stepSchema('answer'),
    schemaMessage: stepMessage,
    defaultValues: { answer: '' },
    fieldIds: ids,
    submit: ({ answer }) =>
      stepCall(
        () => selfReactivation({ step: 'verify-answer', username: progress.username, code: progress.code!, answer }),
        onStop,
        () => onNext(answer),
      ),
    clearOnError: 'answer',
  });
  return (
    <ApiFormStep
      form={form}
      label="Answer your security question"
      title="Answer your security question"
      progress={{ step: 3, of: STEP_COUNT }}
      focus={focus}
      submitLabel="Continue"
    >
      <SecurityQuestionAnswer id={ids.answer} questionTextId="reactivate-question" questionId={progress.questionId} />
    </ApiFormStep>
  );
}

/** The new password; the account is active afterwards. */
function PasswordStep({ progress, focus, onNext, onStop }: StepProps<[]>) {
  const ids = { newPassword: 'reactivate-new-password' };
  const form = useApiForm<PasswordValues>({
    schema: stepSchema('password'),
    schemaMessage: stepMessage,
    defaultValues: { newPassword: '' },
    fieldIds: ids,
    submit: ({ newPassword }) =>
      stepCall(
        () =>
          selfReactivation({
            step: 'set-password',
            username: progress.username,
            code: progress.code!,
            answer: progress.answer!,
            newPassword,
          }),
        onStop,
        onNext,
      ),
  });
  return (
    <ApiFormStep
      form={form}
      label="Choose a new password"
      title="Choose a new password"
      progress={{ step: 4, of: STEP_COUNT }}
      focus={focus}
      submitLabel="Reactivate my account"
    >
      <NewPasswordFields id={ids.newPassword} name="newPassword" personal={[progress.username]} />
    </ApiFormStep>
  );
}

function Stopped({ error, onRestart }: { error: ApiError; onRestart: () => void }) {
  const text = useApiErrorText(error);
  const contact = CONTACT_CODES[error.code];
  return (
    <FormOutcome title={contact?.title ?? 'This code no longer works'} severity={contact ? 'warning' : 'error'}>
      <Typography gutterBottom>{text}</Typography>
      {contact?.findAdmin && (
        <Link component={RouterLink} to={paths.findAdmin.href()}>
          Find my administrator
        </Link>
      )}
      {!contact && (
        <Button onClick={onRestart} variant="outlined">
          Start again
        </Button>
      )}
    </FormOutcome>
  );
}

/**
 * `/reactivate` (docs/requirements/portal.md#self-reactivation): an account disabled after a long time without a
 * login comes back in four steps. Locked or administrator-disabled accounts are told whom to contact.
 */
export function ReactivatePage() {
  const wizard = useWizard<StepName, Progress>({
    storageKey: STORAGE_KEY,
    steps: stepNames,
    initial: () => ({ username: '', dob: '' }),
    reachable,
    kept,
  });
  const { state: progress, setState: setProgress, go } = wizard;
  const [outcome, setOutcome] = useState<{ done: true } | { stopped: ApiError }>();
  const stop = (err: ApiError) => setOutcome({ stopped: err });
  const focus = wizard.moved;

  return (
    <LoginHelpLayout
      title="Reactivate my account"
      intro="Accounts not used for 60 days are disabled. Reactivate yours with a code we email you, your security question and a new password."
    >
      {!outcome && (
        <Box key={`values-${wizard.generation}`}>
          {wizard.step === 'start' && (
            <StartStep
              progress={progress}
              focus={focus}
              onValues={(values) => setProgress((p) => ({ ...p, ...values }))}
              onNext={(values) => go('code', { ...values, code: undefined, answer: undefined })}
            />
          )}
          {wizard.step === 'code' && (
            <CodeStep
              progress={progress}
              focus={focus}
              onStop={stop}
              onStartAgain={(username) => go('start', { username })}
              onNext={(username, code, questionId) => go('answer', { username, code, questionId })}
            />
          )}
          {wizard.step === 'answer' && (
            <AnswerStep
              progress={progress}
              focus={focus}
              onStop={stop}
              onNext={(answer) => go('password', { answer })}
            />
          )}
          {wizard.step === 'password' && (
            <PasswordStep
              progress={progress}
              focus={focus}
              onStop={stop}
              onNext={() => {
                forgetWizard(STORAGE_KEY);
                setProgress({ username: '', dob: '' });
                setOutcome({ done: true });
              }}
            />
          )}
        </Box>
      )}
      {outcome && 'done' in outcome && (
        <FormOutcome title="Your account is active again">
          <Typography gutterBottom>
            Log in with your username and new password. You still need your authenticator app (or a recovery code) to
            finish logging in.
          </Typography>
          <Link component={RouterLink} to={paths.login.href()}>
            Log in
          </Link>
        </FormOutcome>
      )}
      {outcome && 'stopped' in outcome && (
        <Stopped
          error={outcome.stopped}
          onRestart={() => {
            setOutcome(undefined);
            go('start', { username: '', dob: '', code: undefined, answer: undefined });
          }}
        />
      )}
    </LoginHelpLayout>
  );
}
