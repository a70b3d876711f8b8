import { Alert, Skeleton, Typography } from '@mui/material';
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
