import { CircularProgress, Link, Typography } from '@mui/material';
import type { ResetPasswordRequest } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { ApiForm, useApiForm } from '../../components/form/api-form';
import { FormOutcome } from '../../components/form/form-outcome';
import { FormSubmitButton } from '../../components/form/form-submit-button';
import { NewPasswordFields } from '../../components/form/new-password-fields';
import { paths } from '../../config/paths';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useHydrated } from '../../lib/use-hydrated';
import { isDeadEnd } from './components/login-help-errors';
import { LoginHelpLayout } from './components/login-help-layout';
import { SecurityQuestionAnswer } from './components/security-question-text';

type ResetFormValues = Pick<Extract<ResetPasswordRequest, { step: 'set-password' }>, 'answer'> & {
  newPassword: string;
};

const fieldIds = { answer: 'reset-answer', newPassword: 'reset-new-password' };
const fieldMessages: Record<string, string> = {
  answer: 'Enter the answer to your security question.',
  newPassword: 'Enter a new password of at least 15 characters.',
};
const schema = async () => {
  const [{ z }, { ResetPasswordRequest }, { PasswordSchema }] = await Promise.all([
    import('zod/mini'),
    import('@portal/contracts/login-help'),
    import('@portal/contracts/password-policy'),
  ]);
  const setPasswordShape = ResetPasswordRequest.def.options[1].shape;
  return z.object({ answer: setPasswordShape.answer, newPassword: PasswordSchema });
};
// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const loginHelpApi = () => import('./api/login-help-api');

/** The `token` of a `#token=…` fragment. */
function tokenOf(hash: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') || undefined;
}

function RequestNewLink({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <FormOutcome title={title} severity="error">
      {children && <Typography gutterBottom>{children}</Typography>}
      <Link component={RouterLink} to={paths.forgotPassword.href()}>
        Request a new password reset email
      </Link>
    </FormOutcome>
  );
}

/** The security answer and the new password, once the link's token is known to be good. */
function AnswerAndPasswordForm({
  token,
  questionId,
  onDone,
}: {
  token: string;
  questionId: string;
  onDone: (err?: unknown) => void;
}) {
  const form = useApiForm<ResetFormValues>({
    schema,
    schemaMessage: (field) => fieldMessages[field],
    defaultValues: { answer: '', newPassword: '' },
    fieldIds,
    submit: async (values) => {
      try {
        await (await loginHelpApi()).resetPassword({ token, ...values });
        onDone();
      } catch (err) {
        if (!isDeadEnd(err)) throw err;
        onDone(err);
      }
    },
    clearOnError: 'answer',
  });
  return (
    <ApiForm form={form} label="Choose a new password">
      <Typography component="h2" variant="h6">
        1. Answer your security question
      </Typography>
      <SecurityQuestionAnswer id={fieldIds.answer} questionTextId="reset-question" questionId={questionId} />
      <Typography component="h2" variant="h6" sx={{ mt: 3 }}>
        2. Choose a new password
      </Typography>
      <NewPasswordFields id={fieldIds.newPassword} name="newPassword" />
      <FormSubmitButton submitting={form.submitting}>Set new password</FormSubmitButton>
    </ApiForm>
  );
}

/**
 * `/reset-password` (docs/requirements/portal.md#forgot-password): the emailed link's `#token=…` (taken out of the
 * address bar at once), one of the user's security questions, then a new password under the policy.
 */
export function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token, setToken] = useState(() => tokenOf(location.hash));
  const [finished, setFinished] = useState<{ error?: unknown }>();
  // A link opened later in this same tab changes only the fragment, so the page stays mounted: it starts over
  // with the new link's token (adjusting state while rendering, as React advises for derived resets).
  const linkToken = tokenOf(location.hash);
  if (linkToken && linkToken !== token) {
    setToken(linkToken);
    setFinished(undefined);
  }
  // The token must not stay in the address bar, the history or a bookmark.
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [location.hash, location.pathname, location.search, navigate]);

  const question = useQuery({
    queryKey: ['login-help', 'reset-question', token],
    queryFn: async () => (await loginHelpApi()).getResetQuestion(token!),
    enabled: !!token && !finished,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const questionErrorText = useApiErrorText(question.error && !isDeadEnd(question.error) ? question.error : undefined);
  const deadEndText = useApiErrorText(finished?.error ?? (isDeadEnd(question.error) ? question.error : undefined));

  // The token is in the fragment, which never reaches the server: the server's page and its hydration show the
  // loading state, then the browser goes on with what the link holds.
  const hydrated = useHydrated();
  let body: ReactNode;
  if (!hydrated) body = <CircularProgress aria-label="Loading your security question" />;
  else if (finished && !finished.error)
    body = (
      <FormOutcome title="Your password has been changed">
        <Typography gutterBottom>
          You have been logged out everywhere, and we emailed you a notice of the change.
        </Typography>
        <Typography gutterBottom>
          Log in with your new password. You still need your authenticator app (or a recovery code) to finish logging
          in.
        </Typography>
        <Link component={RouterLink} to={paths.login.href()}>
          Log in
        </Link>
      </FormOutcome>
    );
  else if (!token)
    body = (
      <RequestNewLink title="This reset link is not complete">
        Open the link from the email again, or ask for a new one.
      </RequestNewLink>
    );
  else if (finished?.error || isDeadEnd(question.error))
    body = <RequestNewLink title="This reset link no longer works">{deadEndText}</RequestNewLink>;
  else if (question.isError)
    body = (
      <FormOutcome title="Something went wrong" severity="error">
        {questionErrorText}
      </FormOutcome>
    );
  else if (question.isPending) body = <CircularProgress aria-label="Loading your security question" />;
  else
    body = (
      <AnswerAndPasswordForm
        token={token}
        questionId={question.data.questionId}
        onDone={(error) => setFinished({ error })}
      />
    );

  return <LoginHelpLayout title="Reset your password">{body}</LoginHelpLayout>;
}
