import { useParams, useSearchParams } from 'react-router';
import { TopicArticle, TopicPreview } from '../../features/content/components/topic-article';

export function TopicRoute() {
  const { id = '' } = useParams();
  return <TopicArticle key={id} slug={id} />;
}

/** `/preview/topics/:documentId?expires=…&signature=…`: the link the CMS signed for one draft. */
export function TopicPreviewRoute() {
  const { documentId = '' } = useParams();
  const [search] = useSearchParams();
  const link = { documentId, expires: search.get('expires') ?? '', signature: search.get('signature') ?? '' };
  return <TopicPreview key={`${documentId}?${search.toString()}`} link={link} />;
}
