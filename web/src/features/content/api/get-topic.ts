import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TopicEntry } from '@portal/contracts';
import { CONTENT_STALE_MS, readContent } from '../../../lib/content-query';

/**
 * What `/topics/{slug}` shows: the published topic with that slug, or, when none has it now, the current slug of the
 * topic last published under it (`movedTo`: an editor changed the slug, docs/requirements/public-site.md#topic-page),
 * or nothing.
 */
interface TopicLookup {
  topic: TopicEntry | null;
  movedTo?: string;
}

/** The current slug of the topic last published at `slug` (the CMS keeps every address a topic had), if it moved. */
async function movedTo(slug: string, signal: AbortSignal): Promise<string | undefined> {
  const [address] = await readContent(
    'topic-addresses',
    { 'filters[slug][$eq]': slug, 'fields[0]': 'slug', 'fields[1]': 'topicDocumentId' },
    (s) => s.TopicAddressListSchema,
    signal,
  );
  if (!address) return undefined;
  const [topic] = await readContent(
    'topics',
    { 'filters[documentId][$eq]': address.attributes.topicDocumentId, 'fields[0]': 'slug' },
    (s) => s.TopicSlugListSchema,
    signal,
  );
  const current = topic?.attributes.slug;
  return current && current !== slug ? current : undefined;
}

/** One topic by its slug (`/topics/{slug}`). */
export const getTopicQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['content', 'topic', slug],
    queryFn: async ({ signal }): Promise<TopicLookup> => {
      const list = await readContent(
        'topics',
        { 'filters[slug][$eq]': slug, populate: '*' },
        (s) => s.TopicListSchema,
        signal,
      );
      if (list[0]) return { topic: list[0] };
      return { topic: null, movedTo: await movedTo(slug, signal) };
    },
    staleTime: CONTENT_STALE_MS,
  });

export function useTopic(slug: string) {
  return useQuery(getTopicQueryOptions(slug));
}
