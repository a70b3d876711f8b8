import { Button, Typography } from '@mui/material';
import type { ChangeSecurityAnswersRequest } from '@portal/contracts/account';
import { useQueryClient } from '@tanstack/react-query';
import type { Resolver } from 'react-hook-form';
import type { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { requestResolver } from '../../../components/form/request-resolver';
import {
  emptySecurityQuestions,
  SecurityQuestionsFields,
  securityQuestionFieldIds,
  withoutListErrorWhileUnchosen,
  type SecurityQuestionsValues,
} from '../../../components/form/security-questions-fields';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { accountQueryKeys, changeSecurityAnswers } from '../api/account-api';
import { CancelButton, useFocusOnOpen } from './change-toggle';

type Output = z.output<typeof ChangeSecurityAnswersRequest>;
const fieldIds = securityQuestionFieldIds('account');
const requestResolve = requestResolver(
  () => import('@portal/contracts/account').then((m) => m.ChangeSecurityAnswersRequest),
  (values: SecurityQuestionsValues) => values,
);
const resolver: Resolver<SecurityQuestionsValues, unknown, Output> = async (values, context, options) => {
  const result = await requestResolve(values, context, options);
  const errors = withoutListErrorWhileUnchosen(values, { ...result.errors });
  if (Object.keys(errors).length === 0) return result;
  return { values: {}, errors } as Awaited<ReturnType<typeof requestResolve>>;
};

/**
 * The security questions section's form, built when "Change" is chosen (security-answers-section.tsx): three
 * different CMS questions and their answers replace the old ones.
 */
export function SecurityAnswersForm({
  onStatus,
  onClose,
}: {
  onStatus: (message: string | undefined) => void;
  onClose: () => void;
}) {
  const { withReauth } = useReauth();
  const queryClient = useQueryClient();
  useFocusOnOpen('account-question-0');
  const form = useApiForm<SecurityQuestionsValues, Output>({
    resolver,
    defaultValues: { securityQuestions: emptySecurityQuestions() },
    fieldIds,
    submit: async (values) => {
      onStatus(undefined);
      await withReauth(() => changeSecurityAnswers(values));
      onClose();
      onStatus('Your security questions and answers were changed. The new questions are listed below.');
      await queryClient.invalidateQueries({ queryKey: accountQueryKeys.account, exact: true });
    },
  });

  return (
    <ApiForm form={form} labelledBy="security-questions-title" sx={{ maxWidth: 560 }}>
      <Typography sx={{ mb: 1 }}>
        One of these is asked, next to a link or code sent to your email, when you reset your password or reactivate
        your account. New answers replace all three old ones.
      </Typography>
      <SecurityQuestionsFields form={form.form} prefix="account" text={form.text} />
      <Button type="submit" variant="contained" disabled={form.submitting}>
        Change security questions
      </Button>
      <CancelButton onClick={onClose} />
    </ApiForm>
  );
}
