import { HomeContent } from '../../features/content/components/home-content';
import { InlineJurisdictionChooser } from '../../features/jurisdiction/inline-jurisdiction-chooser';
import { useDocumentTitle } from '../../lib/use-document-title';

export function HomeRoute() {
  useDocumentTitle('Home');
  return <HomeContent chooser={<InlineJurisdictionChooser />} />;
}
