import { Button } from '@mui/material';
import type { ChangePhoneRequest } from '@portal/contracts/account';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { PhoneField } from '../../../components/form/form-field';
import { requestResolver } from '../../../components/form/request-resolver';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { accountQueryKeys, changePhone } from '../api/account-api';
import { CancelButton, useFocusOnOpen } from './change-toggle';

const fieldIds = { phone: 'account-phone' };
const resolver = requestResolver(
  () => import('@portal/contracts/account').then((m) => m.ChangePhoneRequest),
  (values: ChangePhoneRequest) => values,
);

/** The phone section's form, built when "Change" is chosen (change-phone-section.tsx): 10 US digits. */
export function ChangePhoneForm({
  onChanged,
  onClose,
}: {
  /** Called with undefined when a change is sent, then with the new number, masked, once it went through. */
  onChanged: (phoneMasked: string | undefined) => void;
  onClose: () => void;
}) {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  useFocusOnOpen(fieldIds.phone);
  const form = useApiForm<ChangePhoneRequest, z.output<typeof ChangePhoneRequest>>({
    resolver,
    defaultValues: { phone: '' },
    fieldIds,
    submit: async (values) => {
      onChanged(undefined);
      const { phoneMasked } = await withReauth(() => changePhone(values));
      onClose();
      onChanged(phoneMasked);
      await queryClient.invalidateQueries({ queryKey: accountQueryKeys.account, exact: true });
    },
  });

  return (
    <ApiForm form={form} labelledBy="phone-title" sx={{ maxWidth: 560 }}>
      <PhoneField
        id={fieldIds.phone}
        name="phone"
        label="New phone number"
        helperText="10 digits, for example 410-555-0123"
        required
      />
      <Button type="submit" variant="contained" disabled={form.submitting} sx={{ mt: 1 }}>
        Change phone
      </Button>
      <CancelButton onClick={onClose} />
    </ApiForm>
  );
}
