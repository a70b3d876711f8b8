import { useParams } from 'react-router';
import { TopicArticle } from '../../features/content/components/topic-article';

export function TopicRoute() {
  const { id = '' } = useParams();
  return <TopicArticle key={id} slug={id} />;
}
