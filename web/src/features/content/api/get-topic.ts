import { queryOptions, useQuery } from '@tanstack/react-query';
import { CONTENT_STALE_MS, readContent } from '../../../lib/content-query';

/** One topic by its stable slug (`/topics/{slug}`). Answers null when none is found. */
export const getTopicQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['content', 'topic', slug],
    queryFn: async ({ signal }) => {
      const list = await readContent(
        'topics',
        { 'filters[slug][$eq]': slug, populate: '*' },
        (s) => s.TopicListSchema,
        signal,
      );
      return list[0] ?? null;
    },
    staleTime: CONTENT_STALE_MS,
  });

export function useTopic(slug: string) {
  return useQuery(getTopicQueryOptions(slug));
}
