import { Alert, Button, Link, Stack } from '@mui/material';
import { LoginRequest, type ErrorCode, type LoginNextStep } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { FormField } from '../../../components/form/form-field';
import { ResendVerificationForm } from '../../../components/verification/resend-verification-form';
import { paths } from '../../../config/paths';
import { siteConfig } from '../../../config/site-config';
import { ApiError } from '../../../lib/api-error';
import { useSession } from '../../../lib/session/session-context';
import { submitPassword } from '../api/auth-api';

const fieldMessages: Record<string, string> = { username: 'Enter your username.', password: 'Enter your password.' };
const fieldIds = { username: 'login-username', password: 'login-password' };
const EMAIL_NOT_VERIFIED = 'Email_Not_Verified' satisfies ErrorCode;
const LOGIN_FAILED = 'Login_Failed' satisfies ErrorCode;
/** The answers to the right password of an account that cannot log in now, and the ways back in each offers. */
const BLOCKED: Partial<Record<ErrorCode, { findAdmin?: boolean; reactivate?: boolean; helpDesk?: boolean }>> = {
  Account_Locked: { findAdmin: true, helpDesk: true },
  Account_Locked_Help_Desk: { helpDesk: true },
  Account_Disabled: { findAdmin: true, helpDesk: true },
  Account_Inactive: { reactivate: true },
};
/** The lockout's rule as the server applies it (site config; its defaults otherwise). */
const lockout = siteConfig.loginLockout ?? { threshold: 5, minutes: 60 };

/**
 * The warning before the last tries: this browser's wrong passwords in a row for one username, counted here only (so
 * it says nothing about whether the account exists), from the second-to-last try before a lock.
 */
function lockoutWarning(wrongInARow: number, rule = lockout): string | undefined {
  const left = rule.threshold - wrongInARow;
  if (wrongInARow < 1 || left > 2 || left < 1) return undefined;
  return `${left === 1 ? 'One more wrong password locks the account' : `${left} more wrong passwords lock the account`} for ${rule.minutes} minutes (${rule.threshold} in a row lock it). Not sure of the password? Use Forgot password instead.`;
}

/** "3:05 PM CST" for when a lock ends, `seconds` from now, in the browser's time zone. */
function lockEndText(seconds: number): string {
  return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(
    new Date(Date.now() + seconds * 1000),
  );
}

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
  // Wrong passwords in a row from this page, by username (as typed, trimmed, any case).
  const [wrong, setWrong] = useState({ username: '', count: 0 });
  const form = useApiForm<LoginRequest>({
    schema: LoginRequest,
    schemaMessage: (field) => fieldMessages[field],
    defaultValues: { username: '', password: '' },
    fieldIds,
    submit: async (values) => {
      const username = values.username.trim().toLowerCase();
      try {
        onNext((await submitPassword(values)).next);
      } catch (err) {
        const wrongPassword = err instanceof ApiError && err.code === LOGIN_FAILED;
        setWrong((run) => ({
          username,
          count: wrongPassword ? (run.username === username ? run.count : 0) + 1 : 0,
        }));
        throw err;
      }
    },
    clearOnError: 'password',
  });
  const { summary, apiError } = form;

  // The right password of an account whose email is not verified yet: the summary says so; a new link is one step away.
  const emailNotVerified = apiError instanceof ApiError && apiError.code === EMAIL_NOT_VERIFIED;
  // The right password of a locked or disabled account: the summary says why; the ways back in follow.
  const blocked = apiError instanceof ApiError ? BLOCKED[apiError.code as ErrorCode] : undefined;
  const lockEnd =
    apiError instanceof ApiError && apiError.code === 'Account_Locked' && apiError.retryAfterSeconds
      ? lockEndText(apiError.retryAfterSeconds)
      : undefined;
  // A wrong password near the lock: the warning is part of the summary's message, read with it where the focus goes.
  const warning =
    apiError instanceof ApiError && apiError.code === LOGIN_FAILED ? lockoutWarning(wrong.count) : undefined;
  const lockEndSentence = lockEnd ? `The lock ends at ${lockEnd}; you can log in again then.` : undefined;
  const extra = warning ?? lockEndSentence;
  const shownSummary =
    extra && summary.length
      ? [
          ...summary.slice(0, -1),
          { ...summary[summary.length - 1]!, message: `${summary[summary.length - 1]!.message} ${extra}` },
        ]
      : summary;

  return (
    <>
      {/* The summary carries the lockout warning or the lock's end: drawn here, not by <ApiForm>. */}
      <ApiForm form={form} label="Log in" summary={false}>
        <FormErrorSummary errors={shownSummary} submitCount={form.submitCount} />
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
        <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 2 }}>
          Log in
        </Button>
      </ApiForm>
      {emailNotVerified && <ResendVerificationForm id="login-resend-email" />}
      {blocked && (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="login-blocked-help">
          <Stack spacing={0.5}>
            {blocked.reactivate && (
              <Link component={RouterLink} to={paths.reactivate.href()}>
                Reactivate my account
              </Link>
            )}
            {blocked.findAdmin && (
              <Link component={RouterLink} to={paths.findAdmin.href()}>
                Find my administrator
              </Link>
            )}
            {blocked.helpDesk && (
              <Link component={RouterLink} to={paths.topic.href('contact')}>
                Contact us: the help desk's hours and numbers
              </Link>
            )}
          </Stack>
        </Alert>
      )}
    </>
  );
}
