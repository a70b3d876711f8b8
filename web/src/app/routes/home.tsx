import { HomeContent } from '../../features/content/components/home-content';
import { lazyPart } from '../../lib/lazy-part';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * The jurisdiction tiles, below the topics, hydrate on their own (lib/lazy-part.tsx): their checkboxes and form
 * controls load beside the page (the home page's initial JS stays under 150 KB, issue 39).
 */
const chooser = lazyPart(
  () => import('../../features/jurisdiction/inline-jurisdiction-chooser').then((m) => m.InlineJurisdictionChooser),
  { reserve: '40rem' },
);
export const homeParts = [chooser];

export function HomeRoute() {
  useDocumentTitle('Home');
  return <HomeContent chooser={<chooser.Part />} />;
}
