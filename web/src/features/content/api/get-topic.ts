import { queryOptions, useQuery } from '@tanstack/react-query';
import { TopicListSchema } from '@portal/contracts';
import { contentRequest } from '../../../lib/content-request';

/** One topic by its stable slug (`/topics/{slug}`). Answers null when none is found. */
export const getTopicQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['content', 'topic', slug],
    queryFn: async ({ signal }) => {
      const list = await contentRequest(
        'topics',
        { 'filters[slug][$eq]': slug, populate: '*' },
        TopicListSchema,
        signal,
      );
      return list[0] ?? null;
    },
    staleTime: 60_000,
  });

export function useTopic(slug: string) {
  return useQuery(getTopicQueryOptions(slug));
}
