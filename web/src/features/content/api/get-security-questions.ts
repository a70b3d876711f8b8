import { queryOptions, useQuery } from '@tanstack/react-query';
import { SecurityQuestionListSchema } from '@portal/contracts';
import { contentRequest } from '../../../lib/content-request';

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
