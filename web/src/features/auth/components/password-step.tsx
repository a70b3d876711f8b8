import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@mui/material';
import { LoginRequest, type ErrorCode, type LoginNextStep } from '@portal/contracts';
import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { FormField } from '../../../components/form/form-field';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { ResendVerificationForm } from '../../../components/verification/resend-verification-form';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { submitPassword } from '../api/auth-api';

const fieldMessages: Record<string, string> = { username: 'Enter your username.', password: 'Enter your password.' };
const fieldIds = { username: 'login-username', password: 'login-password' };
const EMAIL_NOT_VERIFIED = 'Email_Not_Verified' satisfies ErrorCode;

/**
 * Username and password (docs/requirements/session.md#login); the server answers which second-factor step follows,
 * or that the account's email address still needs verifying (with a form to send a new link).
 */
export function PasswordStep({
  onNext,
  focusLogin = false,
}: {
  onNext: (next: LoginNextStep) => void;
  /** Focus the username field when the form appears (the session-ended dialog's Login). */
  focusLogin?: boolean;
}) {
  const { loginRef } = useSession();
  useEffect(() => {
    if (focusLogin) loginRef.current?.focus();
  }, [focusLogin, loginRef]);
  const form = useForm<LoginRequest>({
    resolver: zodResolver(LoginRequest, { error: (issue) => fieldMessages[String(issue.path?.[0])] }),
    defaultValues: { username: '', password: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;

  const { onSubmit, summary, apiError } = useApiFormSubmit(form, fieldIds, {
    submit: async (values) => onNext((await submitPassword(values)).next),
    clearOnError: 'password',
  });

  // The right password of an account whose email is not verified yet: the summary says so; a new link is one step away.
  const emailNotVerified = apiError instanceof ApiError && apiError.code === EMAIL_NOT_VERIFIED;

  return (
    <>
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate aria-label="Log in">
          <FormErrorSummary errors={summary} submitCount={submitCount} />
          <FormField
            id={fieldIds.username}
            name="username"
            label="Username"
            autoComplete="username"
            extraInputRef={loginRef}
            required
          />
          <FormField
            id={fieldIds.password}
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
          />
          <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ mt: 2 }}>
            Log in
          </Button>
        </form>
      </FormProvider>
      {emailNotVerified && <ResendVerificationForm id="login-resend-email" />}
    </>
  );
}
