import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SecurityQuestion } from '@portal/contracts';
import { readContent } from './content-query';

/**
 * The CMS list of security questions (`GET /api/content/security-questions`), in the editors' order. Shared by
 * registration and the login-help flows; answers are stored under each question's stable `key`.
 */
export const getSecurityQuestionsQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'security-questions'],
    queryFn: ({ signal }) =>
      readContent(
        'security-questions',
        { sort: 'order:asc', 'pagination[pageSize]': '100' },
        (schemas) => schemas.SecurityQuestionListSchema,
        signal,
      ),
    staleTime: 5 * 60_000,
  });

export function useSecurityQuestions() {
  return useQuery(getSecurityQuestionsQueryOptions());
}

/** The question a server answer names by its stable `key` (docs/requirements/portal.md#validation-rules). */
export function findSecurityQuestion(questions: readonly SecurityQuestion[], questionId: string) {
  return questions.find((q) => q.attributes.key === questionId);
}
