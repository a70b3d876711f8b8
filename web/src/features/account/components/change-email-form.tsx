import { Button, Typography } from '@mui/material';
import type { ChangeEmailRequest } from '@portal/contracts/account';
import type { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { EmailField } from '../../../components/form/form-field';
import { requestResolver } from '../../../components/form/request-resolver';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { changeEmail } from '../api/account-api';
import { CancelButton, useFocusOnOpen } from './change-toggle';

const fieldIds = { email: 'account-new-email' };
const resolver = requestResolver(
  () => import('@portal/contracts/account').then((m) => m.ChangeEmailRequest),
  (values: ChangeEmailRequest) => values,
);

/** The email section's form, built when "Change" is chosen (change-email-section.tsx). */
export function ChangeEmailForm({
  onStatus,
  onClose,
}: {
  onStatus: (message: string | undefined) => void;
  onClose: () => void;
}) {
  const { withReauth } = useReauth();
  useFocusOnOpen(fieldIds.email);
  const form = useApiForm<ChangeEmailRequest, z.output<typeof ChangeEmailRequest>>({
    resolver,
    defaultValues: { email: '' },
    fieldIds,
    fieldForCode: { Email_Unchanged: 'email' },
    submit: async (values) => {
      onStatus(undefined);
      await withReauth(() => changeEmail(values));
      onClose();
      onStatus(
        `We sent a link to ${values.email}. Open it within 72 hours to start using that address; until then your account keeps its current address, which we told about this request.`,
      );
    },
  });

  return (
    <ApiForm form={form} labelledBy="email-title" sx={{ maxWidth: 560 }}>
      <Typography sx={{ mt: 1 }}>
        We send a link to the new address to confirm it: the change happens when you open it.
      </Typography>
      <EmailField id={fieldIds.email} name="email" label="New email address" required />
      <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 1 }}>
        Send the confirmation link
      </Button>
      <CancelButton onClick={onClose} />
    </ApiForm>
  );
}
