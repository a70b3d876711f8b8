import { queryOptions, useQuery } from '@tanstack/react-query';
import { readContent } from '../../../lib/content-query';

/** The signed link the CMS opens for one draft (docs/requirements/public-site.md#preview). */
export interface PreviewLink {
  documentId: string;
  expires: string;
  signature: string;
}

/**
 * One topic's draft through the portal's signed preview read. Never kept: each opening of the preview (the CMS opens
 * it again after each save) reads the draft as it is now.
 */
export const getTopicPreviewQueryOptions = (link: PreviewLink) =>
  queryOptions({
    queryKey: ['content', 'topic-preview', link.documentId, link.expires, link.signature],
    queryFn: ({ signal }) =>
      readContent(
        `preview/topics/${encodeURIComponent(link.documentId)}`,
        { expires: link.expires, signature: link.signature },
        (s) => s.TopicEntrySchema,
        signal,
      ),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

export function useTopicPreview(link: PreviewLink) {
  return useQuery(getTopicPreviewQueryOptions(link));
}
