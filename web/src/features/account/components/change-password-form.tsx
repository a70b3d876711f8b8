import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Typography } from '@mui/material';
import type { ChangePasswordRequest } from '@portal/contracts/account';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@portal/contracts/password-rules';
import { useQueryClient } from '@tanstack/react-query';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { CurrentPasswordField } from '../../../components/form/form-password-field';
import { lazyResolver } from '../../../components/form/lazy-resolver';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { accountQueryKeys, changePassword } from '../api/account-api';
import { CancelButton, useFocusOnOpen } from './change-toggle';

const fieldIds = { currentPassword: 'current-password', newPassword: 'new-password' };
const fieldMessages: Record<string, string> = {
  currentPassword: 'Enter your current password.',
  newPassword: `Enter a new password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
};
/** The request with the policy's length rules on the new password (built at the first submit); the server applies the whole policy. */
const resolver = lazyResolver<ChangePasswordRequest>(async () => {
  const [{ z }, { ChangePasswordRequest }, { PasswordSchema }] = await Promise.all([
    import('zod/mini'),
    import('@portal/contracts/account'),
    import('@portal/contracts/password-policy'),
  ]);
  return zodResolver(z.extend(ChangePasswordRequest, { newPassword: PasswordSchema }), {
    error: (issue) => fieldMessages[String(issue.path?.[0])],
  });
});

/**
 * The password section's form, built when "Change" is chosen (change-password-section.tsx): the current password
 * and a new one under the shared policy, with its live checklist. The other sessions end; this one stays.
 */
export function ChangePasswordForm({
  personal,
  onStatus,
  onClose,
}: {
  /** The account's name, username and email: the new password must not contain them. */
  personal: string[];
  onStatus: (message: string | undefined) => void;
  onClose: () => void;
}) {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  useFocusOnOpen(fieldIds.currentPassword);
  const form = useApiForm<ChangePasswordRequest>({
    resolver,
    defaultValues: { currentPassword: '', newPassword: '' },
    fieldIds,
    submit: async (values) => {
      onStatus(undefined);
      const { otherSessionsEnded } = await withReauth(() => changePassword(values));
      onClose();
      onStatus(
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

  return (
    <ApiForm form={form} labelledBy="password-title" sx={{ maxWidth: 560 }}>
      <Typography sx={{ mt: 1 }}>
        Changing your password logs you out everywhere else. Links we emailed you before, and an email address change
        you have not confirmed yet, stop working.
      </Typography>
      <CurrentPasswordField id={fieldIds.currentPassword} name="currentPassword" label="Current password" required />
      <NewPasswordFields id={fieldIds.newPassword} name="newPassword" personal={personal} />
      <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 1 }}>
        Change password
      </Button>
      <CancelButton onClick={onClose} />
    </ApiForm>
  );
}
