import { HomeContent } from '../../features/content/components/home-content';
import { useDocumentTitle } from '../../lib/use-document-title';

export function HomeRoute() {
  useDocumentTitle('Home');
  return <HomeContent />;
}
