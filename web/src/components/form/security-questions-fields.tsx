import { Alert, Box, Typography } from '@mui/material';
import { SECURITY_QUESTION_COUNT } from '@portal/contracts/field-limits';
import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import { useWatch } from 'react-hook-form';
import { useSecurityQuestions } from '../../lib/security-questions';
import { FormSelectField } from './form-select-field';
import { FormTextField } from './form-text-field';

/** The part of a form's values these fields own: three rows of a CMS question's `key` and its answer. */
export interface SecurityQuestionsValues {
  securityQuestions: { questionId: string; answer: string }[];
}

const questionIndexes = Array.from({ length: SECURITY_QUESTION_COUNT }, (_, index) => index);

/** Three empty rows. */
export const emptySecurityQuestions = (): SecurityQuestionsValues['securityQuestions'] =>
  questionIndexes.map(() => ({ questionId: '', answer: '' }));

/** The ids of the fields (by their dotted paths) for the error summary's links; `prefix` keeps them unique. */
export function securityQuestionFieldIds(prefix: string): Record<string, string> {
  return {
    securityQuestions: `${prefix}-questions`,
    'securityQuestions.root': `${prefix}-questions`,
    ...Object.fromEntries(
      questionIndexes.flatMap((index) => [
        [`securityQuestions.${index}.questionId`, `${prefix}-question-${index}`],
        [`securityQuestions.${index}.answer`, `${prefix}-answer-${index}`],
      ]),
    ),
  };
}

/**
 * Resolver errors as the fields show them: while a row has no question chosen, that row says so, and the list's
 * "three different questions" would only repeat it, so it is dropped (the rows' own errors stay).
 */
export function withoutListErrorWhileUnchosen(
  values: SecurityQuestionsValues,
  errors: Record<string, unknown>,
): Record<string, unknown> {
  if (!values.securityQuestions.some((row) => !row.questionId)) return errors;
  const result = { ...errors };
  // The list's own error sits on the list (or its `root`) next to the rows' errors: keep the rows'.
  const list = result.securityQuestions as Record<string, unknown> | undefined;
  if (list) {
    const { message: _message, type: _type, ref: _ref, types: _types, root: _root, ...rows } = list;
    if (Object.keys(rows).length) result.securityQuestions = Array.isArray(list) ? Object.assign([], rows) : rows;
    else delete result.securityQuestions;
  }
  return result;
}

/**
 * Three different security questions from the CMS list and their answers (registration, My account): a question
 * chosen in one row cannot be chosen in another; answers are stored under the question's stable `key`.
 */
export function SecurityQuestionsFields<T extends SecurityQuestionsValues>({
  form: typedForm,
  prefix,
  text,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  prefix: string;
  /** The list's own message (an error code) as it is shown; the rows' fields translate theirs. */
  text: (message: string | undefined) => string | undefined;
}) {
  // react-hook-form cannot type paths into a generic form: the fields see it as the part they own.
  const form = typedForm as unknown as UseFormReturn<SecurityQuestionsValues>;
  const questions = useSecurityQuestions();
  const chosen = useWatch({ control: form.control, name: 'securityQuestions' });
  const errors = form.formState.errors as FieldErrors<SecurityQuestionsValues>;
  const questionOptions = (index: number) =>
    (questions.data ?? []).map((entry) => ({
      value: entry.attributes.key,
      label: entry.attributes.question,
      // A question chosen in another row cannot be chosen again (three different questions).
      disabled: chosen.some((row, other) => other !== index && row.questionId === entry.attributes.key),
    }));
  // "Three different questions" is about the list as a whole, not one row.
  const questionsMessage = errors.securityQuestions?.root?.message ?? errors.securityQuestions?.message;

  return (
    <>
      <Typography sx={{ mb: 1 }}>Choose three different questions. Answers are not case-sensitive.</Typography>
      {questions.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          The security questions could not be loaded. Reload the page to try again.
        </Alert>
      )}
      {questionsMessage && (
        <Typography color="error" id={`${prefix}-questions`} tabIndex={-1} sx={{ mb: 1 }}>
          {text(questionsMessage)}
        </Typography>
      )}
      {questionIndexes.map((index) => (
        <Box key={index} component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2 }}>
          <Box component="legend" sx={{ fontWeight: 700, p: 0 }}>
            Security question {index + 1}
          </Box>
          <FormSelectField
            id={`${prefix}-question-${index}`}
            label="Question"
            options={questionOptions(index)}
            registration={form.register(`securityQuestions.${index}.questionId`)}
            error={errors.securityQuestions?.[index]?.questionId}
            required
          />
          <FormTextField
            id={`${prefix}-answer-${index}`}
            label="Answer"
            autoComplete="off"
            registration={form.register(`securityQuestions.${index}.answer`)}
            error={errors.securityQuestions?.[index]?.answer}
            required
          />
        </Box>
      ))}
    </>
  );
}
