import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Typography } from '@mui/material';
import { ChangePasswordRequest, type Account } from '@portal/contracts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordSchema } from '@portal/contracts/password-policy';
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { CurrentPasswordField } from '../../../components/form/form-password-field';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { StatusMessage } from '../../../components/status/status-message';
import { accountQueryKeys, changePassword } from '../api/account-api';
import { formatDate } from '../../../components/layouts/page-section';
import { CancelButton, ChangeButton, useChangeToggle } from './change-toggle';

const fieldIds = { currentPassword: 'current-password', newPassword: 'new-password' };
const fieldMessages: Record<string, string> = {
  currentPassword: 'Enter your current password.',
  newPassword: `Enter a new password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
};
/** The request with the policy's length rules on the new password; the server applies the whole policy. */
const ChangePasswordForm = z.extend(ChangePasswordRequest, { newPassword: PasswordSchema });

/**
 * Password: when it was last changed, and its form behind "Change": the current one and a new one under the shared
 * policy, with its live checklist. The other sessions end; this one stays.
 */
export function ChangePasswordSection({ account }: { account: UseQueryResult<Account> }) {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string>();
  const { open, openForm, closeForm } = useChangeToggle('password', fieldIds.currentPassword);
  const form = useForm<ChangePasswordRequest>({
    resolver: zodResolver(ChangePasswordForm, { error: (issue) => fieldMessages[String(issue.path?.[0])] }),
    defaultValues: { currentPassword: '', newPassword: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;
  const personal = account.data
    ? [account.data.firstName, account.data.lastName, account.data.username, account.data.email]
    : [];

  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
    submit: async (values) => {
      setStatus(undefined);
      const { otherSessionsEnded } = await withReauth(() => changePassword(values));
      form.reset();
      closeForm();
      setStatus(
        otherSessionsEnded > 0
          ? `Your password was changed. You were logged out of ${otherSessionsEnded} other session${otherSessionsEnded === 1 ? '' : 's'}.`
          : 'Your password was changed.',
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountQueryKeys.sessions }),
        queryClient.invalidateQueries({ queryKey: accountQueryKeys.account, exact: true }),
      ]);
    },
    clearOnError: 'currentPassword',
  });
  const cancel = () => {
    form.reset();
    closeForm();
  };

  return (
    <>
      <StatusMessage message={status} testId="password-status" />
      <Typography data-testid="password-current">
        {account.data
          ? `Your password was last changed on ${formatDate(account.data.passwordChangedAt)}.`
          : 'Your password'}
      </Typography>
      {open ? (
        <FormProvider {...form}>
          <Box component="form" onSubmit={onSubmit} noValidate aria-labelledby="password-title" sx={{ maxWidth: 560 }}>
            <FormErrorSummary errors={summary} submitCount={submitCount} />
            <Typography sx={{ mt: 1 }}>
              Changing your password logs you out everywhere else. Links we emailed you before, and an email address
              change you have not confirmed yet, stop working.
            </Typography>
            <CurrentPasswordField
              id={fieldIds.currentPassword}
              name="currentPassword"
              label="Current password"
              required
            />
            <NewPasswordFields id={fieldIds.newPassword} name="newPassword" personal={personal} />
            <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ mt: 1 }}>
              Change password
            </Button>
            <CancelButton onClick={cancel} />
          </Box>
        </FormProvider>
      ) : (
        <ChangeButton id="password" what="password" onClick={openForm} />
      )}
    </>
  );
}
