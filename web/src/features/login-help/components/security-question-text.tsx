import { Alert, Skeleton, Typography } from '@mui/material';
import { FormField } from '../../../components/form/form-field';
import { findSecurityQuestion, useSecurityQuestions } from '../../../lib/security-questions';

/** The text of the security question the server picked (by its CMS key), as the label's companion. */
export function SecurityQuestionText({ id, questionId }: { id: string; questionId: string }) {
  const questions = useSecurityQuestions();
  if (questions.isPending) return <Skeleton width="60%" aria-hidden />;
  const question = questions.data ? findSecurityQuestion(questions.data, questionId) : undefined;
  if (!question)
    return (
      <Alert severity="warning" id={id}>
        Your security question could not be loaded. Reload the page to try again.
      </Alert>
    );
  return (
    <Typography id={id} sx={{ fontWeight: 700, mt: 2 }}>
      {question.attributes.question}
    </Typography>
  );
}

/**
 * One of the user's security questions and the answer field it describes (reset by link, reactivation); the form's
 * field is `answer`, found through its `FormProvider`.
 */
export function SecurityQuestionAnswer({
  id,
  questionTextId,
  questionId,
}: {
  id: string;
  questionTextId: string;
  questionId?: string;
}) {
  return (
    <>
      {questionId && <SecurityQuestionText id={questionTextId} questionId={questionId} />}
      <FormField
        id={id}
        name="answer"
        label="Your answer"
        autoComplete="off"
        slotProps={{ htmlInput: { 'aria-describedby': questionTextId } }}
        required
      />
    </>
  );
}
