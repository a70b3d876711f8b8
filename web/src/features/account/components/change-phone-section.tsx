import { Box, Button, Typography } from '@mui/material';
import { ChangePhoneRequest, type Account } from '@portal/contracts';
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { z } from 'zod/mini';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { PhoneField } from '../../../components/form/form-field';
import { requestResolver } from '../../../components/form/request-resolver';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { StatusMessage } from '../../../components/status/status-message';
import { accountQueryKeys, changePhone } from '../api/account-api';
import { CancelButton, ChangeButton, useChangeToggle } from './change-toggle';
import { MaskedPhone } from './masked-phone';

const fieldIds = { phone: 'account-phone' };
const resolver = requestResolver(ChangePhoneRequest, (values: ChangePhoneRequest) => values);

/** Phone: the number on file (masked by the server), and its form behind "Change" (10 US digits). */
export function ChangePhoneSection({ account }: { account: UseQueryResult<Account> }) {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  const { open, openForm, closeForm } = useChangeToggle('phone', fieldIds.phone);
  /** The new number, masked, once a change has gone through. */
  const [changedTo, setChangedTo] = useState<string>();
  const form = useForm<ChangePhoneRequest, unknown, z.output<typeof ChangePhoneRequest>>({
    resolver,
    defaultValues: { phone: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
    submit: async (values) => {
      setChangedTo(undefined);
      const { phoneMasked } = await withReauth(() => changePhone(values));
      form.reset();
      closeForm();
      setChangedTo(phoneMasked);
      await queryClient.invalidateQueries({ queryKey: accountQueryKeys.account, exact: true });
    },
  });
  const cancel = () => {
    form.reset();
    closeForm();
  };
  const current = changedTo ?? account.data?.phoneMasked;

  return (
    <>
      <StatusMessage
        message={
          changedTo && (
            <>
              Your phone number was changed to <MaskedPhone phone={changedTo} />.
            </>
          )
        }
        testId="phone-status"
      />
      <Typography data-testid="phone-current">
        {current ? (
          <>
            The number we can call you on about your account: <MaskedPhone phone={current} />.
          </>
        ) : account.data ? (
          'No phone number is on file.'
        ) : (
          'The number we can call you on about your account.'
        )}
      </Typography>
      {open ? (
        <FormProvider {...form}>
          <Box component="form" onSubmit={onSubmit} noValidate aria-labelledby="phone-title" sx={{ maxWidth: 560 }}>
            <FormErrorSummary errors={summary} submitCount={submitCount} />
            <PhoneField
              id={fieldIds.phone}
              name="phone"
              label="New phone number"
              helperText="10 digits, for example 410-555-0123"
              required
            />
            <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ mt: 1 }}>
              Change phone
            </Button>
            <CancelButton onClick={cancel} />
          </Box>
        </FormProvider>
      ) : (
        <ChangeButton id="phone" what="phone number" onClick={openForm} />
      )}
    </>
  );
}
