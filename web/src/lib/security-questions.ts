import { queryOptions, useQuery } from '@tanstack/react-query';
import { SecurityQuestionListSchema } from '@portal/contracts';
import { contentRequest } from './content-request';

/**
 * The CMS list of security questions (`GET /api/content/security-questions`), in the editors' order. Shared by
 * registration and the login-help flows; answers are stored under each question's stable `key`.
 */
export const getSecurityQuestionsQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'security-questions'],
    queryFn: ({ signal }) =>
      contentRequest(
        'security-questions',
        { sort: 'order:asc', 'pagination[pageSize]': '100' },
        SecurityQuestionListSchema,
        signal,
      ),
    staleTime: 5 * 60_000,
  });

export function useSecurityQuestions() {
  return useQuery(getSecurityQuestionsQueryOptions());
}
