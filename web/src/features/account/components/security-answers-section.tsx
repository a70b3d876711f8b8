import { Box, Button, List, ListItem, Skeleton, Typography } from '@mui/material';
import { ChangeSecurityAnswersRequest, type Account } from '@portal/contracts';
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
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
import { findSecurityQuestion, useSecurityQuestions } from '../../../lib/security-questions';
import { accountQueryKeys, changeSecurityAnswers } from '../api/account-api';
import { CancelButton, ChangeButton, useChangeToggle } from './change-toggle';

type Output = z.output<typeof ChangeSecurityAnswersRequest>;
const fieldIds = securityQuestionFieldIds('account');
const requestResolve = requestResolver(ChangeSecurityAnswersRequest, (values: SecurityQuestionsValues) => values);
const resolver: Resolver<SecurityQuestionsValues, unknown, Output> = async (values, context, options) => {
  const result = await requestResolve(values, context, options);
  const errors = withoutListErrorWhileUnchosen(values, { ...result.errors });
  if (Object.keys(errors).length === 0) return result;
  return { values: {}, errors } as Awaited<ReturnType<typeof requestResolve>>;
};

/** The user's questions as the CMS words them (the server names them by key; answers never leave it). */
function CurrentQuestions({ ids }: { ids: readonly string[] | undefined }) {
  const questions = useSecurityQuestions();
  if (!ids || questions.isPending) return <Skeleton width="60%" aria-hidden />;
  if (ids.length === 0) return <Typography>You have no security questions yet.</Typography>;
  return (
    <>
      <Typography>Your security questions (the answers are never shown):</Typography>
      <List dense sx={{ listStyleType: 'disc', pl: 3 }} data-testid="security-questions-current">
        {ids.map((id) => (
          <ListItem key={id} sx={{ display: 'list-item', pl: 0 }}>
            {(questions.data && findSecurityQuestion(questions.data, id)?.attributes.question) ?? id}
          </ListItem>
        ))}
      </List>
    </>
  );
}

/**
 * Security questions: the current three (questions only), and the form behind "Change": three different CMS
 * questions and their answers replace the old ones.
 */
export function SecurityAnswersSection({ account }: { account: UseQueryResult<Account> }) {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  const { open, openForm, closeForm } = useChangeToggle('security-questions', 'account-question-0');
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
      closeForm();
      setStatus('Your security questions and answers were changed. The new questions are listed below.');
      await queryClient.invalidateQueries({ queryKey: accountQueryKeys.account, exact: true });
    },
  });
  const cancel = () => {
    form.reset({ securityQuestions: emptySecurityQuestions() });
    closeForm();
  };

  return (
    <>
      <StatusMessage message={status} testId="security-questions-status" />
      <CurrentQuestions ids={account.data?.securityQuestionIds} />
      {open ? (
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
          <CancelButton onClick={cancel} />
        </Box>
      ) : (
        <ChangeButton id="security-questions" what="security questions" onClick={openForm} />
      )}
    </>
  );
}
