import { Box, Button, Typography } from '@mui/material';
import { ChangeEmailRequest, type Account } from '@portal/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { z } from 'zod/mini';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { EmailField } from '../../../components/form/form-field';
import { requestResolver } from '../../../components/form/request-resolver';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { StatusMessage } from '../../../components/status/status-message';
import { changeEmail } from '../api/account-api';
import { CancelButton, ChangeButton, useChangeToggle } from './change-toggle';

const fieldIds = { email: 'account-new-email' };
const resolver = requestResolver(ChangeEmailRequest, (values: ChangeEmailRequest) => values);

/**
 * Email: the current address, and its form behind "Change". The new address is used only once the link sent to it
 * is opened; the current address is told that a change was asked for. The answer is the same whether or not another
 * account uses the new address.
 */
export function ChangeEmailSection({ account }: { account: UseQueryResult<Account> }) {
  const { withReauth } = useReauth();
  const { open, openForm, closeForm } = useChangeToggle('email', fieldIds.email);
  const [status, setStatus] = useState<string>();
  const form = useForm<ChangeEmailRequest, unknown, z.output<typeof ChangeEmailRequest>>({
    resolver,
    defaultValues: { email: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
    fieldForCode: { Email_Unchanged: 'email' },
    submit: async (values) => {
      setStatus(undefined);
      await withReauth(() => changeEmail(values));
      form.reset();
      closeForm();
      setStatus(
        `We sent a link to ${values.email}. Open it within 72 hours to start using that address; until then your account keeps its current address, which we told about this request.`,
      );
    },
  });
  const cancel = () => {
    form.reset();
    closeForm();
  };

  return (
    <>
      <StatusMessage message={status} testId="email-status" />
      <Typography data-testid="email-current">
        {account.data ? (
          <>
            Your email address is <strong>{account.data.email}</strong>.
          </>
        ) : (
          'Your email address'
        )}
      </Typography>
      {open ? (
        <FormProvider {...form}>
          <Box component="form" onSubmit={onSubmit} noValidate aria-labelledby="email-title" sx={{ maxWidth: 560 }}>
            <FormErrorSummary errors={summary} submitCount={submitCount} />
            <Typography sx={{ mt: 1 }}>
              We send a link to the new address to confirm it: the change happens when you open it.
            </Typography>
            <EmailField id={fieldIds.email} name="email" label="New email address" required />
            <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ mt: 1 }}>
              Send the confirmation link
            </Button>
            <CancelButton onClick={cancel} />
          </Box>
        </FormProvider>
      ) : (
        <ChangeButton id="email" what="email address" onClick={openForm} />
      )}
    </>
  );
}
