import { Box, Button, Typography } from '@mui/material';
import { ChangePhoneRequest } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod/mini';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { FormTextField } from '../../../components/form/form-text-field';
import { requestResolver } from '../../../components/form/request-resolver';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { StatusMessage } from '../../../components/status/status-message';
import { accountQueryKeys, changePhone } from '../api/account-api';
import { AccountSection } from './account-section';
import { MaskedPhone } from './masked-phone';

const fieldIds = { phone: 'account-phone' };
const resolver = requestResolver(ChangePhoneRequest, (values: ChangePhoneRequest) => values);

/** Change phone: the registration's rule (10 US digits); the profile shows the new number masked. */
export function ChangePhoneSection() {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  /** The new number, masked, once a change has gone through. */
  const [changedTo, setChangedTo] = useState<string>();
  const form = useForm<ChangePhoneRequest, unknown, z.output<typeof ChangePhoneRequest>>({
    resolver,
    defaultValues: { phone: '' },
    shouldFocusError: false,
  });
  const { errors, submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
    submit: async (values) => {
      setChangedTo(undefined);
      const { phoneMasked } = await withReauth(() => changePhone(values));
      form.reset();
      setChangedTo(phoneMasked);
      await queryClient.invalidateQueries({ queryKey: accountQueryKeys.account, exact: true });
    },
  });

  return (
    <AccountSection id="phone" title="Change phone">
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
      <Box component="form" onSubmit={onSubmit} noValidate aria-labelledby="phone-title" sx={{ maxWidth: 560 }}>
        <FormErrorSummary errors={summary} submitCount={submitCount} />
        <Typography>The number we can call you on about your account.</Typography>
        <FormTextField
          id={fieldIds.phone}
          label="New phone number"
          type="tel"
          autoComplete="tel-national"
          registration={form.register('phone')}
          error={errors.phone}
          helperText="10 digits, for example 410-555-0123"
          required
        />
        <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ mt: 1 }}>
          Change phone
        </Button>
      </Box>
    </AccountSection>
  );
}
