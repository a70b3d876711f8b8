import { Box, Button, Typography } from '@mui/material';
import { ChangeSecurityAnswersRequest } from '@portal/contracts';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod/mini';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { requestResolver } from '../../../components/form/request-resolver';
import {
  emptySecurityQuestions,
  SecurityQuestionsFields,
  securityQuestionFieldIds,
  withoutListErrorWhileUnchosen,
  type SecurityQuestionsValues,
} from '../../../components/form/security-questions-fields';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { StatusMessage } from '../../../components/status/status-message';
import { changeSecurityAnswers } from '../api/account-api';
import { AccountSection } from './account-section';

type Output = z.output<typeof ChangeSecurityAnswersRequest>;
const fieldIds = securityQuestionFieldIds('account');
const requestResolve = requestResolver(ChangeSecurityAnswersRequest, (values: SecurityQuestionsValues) => values);
const resolver: Resolver<SecurityQuestionsValues, unknown, Output> = async (values, context, options) => {
  const result = await requestResolve(values, context, options);
  const errors = withoutListErrorWhileUnchosen(values, { ...result.errors });
  if (Object.keys(errors).length === 0) return result;
  return { values: {}, errors } as Awaited<ReturnType<typeof requestResolve>>;
};

/** Change security questions: three different CMS questions and their answers replace the old ones. */
export function SecurityAnswersSection() {
  const { withReauth } = useReauth();
  const [status, setStatus] = useState<string>();
  const form = useForm<SecurityQuestionsValues, unknown, Output>({
    resolver,
    defaultValues: { securityQuestions: emptySecurityQuestions() },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary, text } = useApiFormSubmit(form, fieldIds, {
    submit: async (values) => {
      setStatus(undefined);
      await withReauth(() => changeSecurityAnswers(values));
      form.reset({ securityQuestions: emptySecurityQuestions() });
      setStatus('Your security questions and answers were changed.');
    },
  });

  return (
    <AccountSection id="security-questions" title="Security questions">
      <StatusMessage message={status} testId="security-questions-status" />
      <Box
        component="form"
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="security-questions-title"
        sx={{ maxWidth: 560 }}
      >
        <FormErrorSummary errors={summary} submitCount={submitCount} />
        <Typography sx={{ mb: 1 }}>
          One of these is asked, next to a link or code sent to your email, when you reset your password or reactivate
          your account. New answers replace all three old ones.
        </Typography>
        <SecurityQuestionsFields form={form} prefix="account" text={text} />
        <Button type="submit" variant="contained" disabled={isSubmitting}>
          Change security questions
        </Button>
      </Box>
    </AccountSection>
  );
}
