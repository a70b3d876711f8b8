import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Jurisdiction, TopicEntry } from '@portal/contracts';
import { CONTENT_STALE_MS, readContent } from '../../../lib/content-query';

export const getTopicsQueryOptions = () =>
  queryOptions({
    queryKey: ['content', 'topics'],
    queryFn: ({ signal }) =>
      readContent(
        'topics',
        {
          'fields[0]': 'title',
          'fields[1]': 'slug',
          'fields[2]': 'summary',
          'fields[3]': 'jurisdictions',
          'fields[4]': 'order',
          'fields[5]': 'publishedAt',
          sort: 'order:asc',
          'pagination[pageSize]': '100',
        },
        (s) => s.TopicListSchema,
        signal,
      ),
    staleTime: CONTENT_STALE_MS,
  });

/** Topics that apply to the jurisdiction; a topic with no jurisdictions listed applies to all. Unpublished ones never show. */
export function topicsFor(topics: TopicEntry[], jurisdiction: Jurisdiction | ''): TopicEntry[] {
  return topics.filter((t) => {
    if (!t.attributes.publishedAt) return false;
    const list = t.attributes.jurisdictions ?? [];
    return !jurisdiction || list.length === 0 || list.includes(jurisdiction);
  });
}

export function useTopics() {
  return useQuery(getTopicsQueryOptions());
}
