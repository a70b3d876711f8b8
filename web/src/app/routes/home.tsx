import { lazy, Suspense } from 'react';
import { HomeContent } from '../../features/content/components/home-content';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * The jurisdiction tiles are in the server's HTML; their code (the chooser, MUI's checkbox) is not needed to hydrate
 * the rest of the page, so it loads after the route (docs/requirements/platform.md#web-budget). React keeps a
 * suspended boundary's server markup while hydrating and hydrates it when the code arrives (a click on a tile before
 * then is replayed), so nothing moves. Reached by a link in the app, the tiles appear under the topics, last on the
 * page.
 */
const InlineJurisdictionChooser = lazy(() =>
  import('../../features/jurisdiction/inline-jurisdiction-chooser').then((m) => ({
    default: m.InlineJurisdictionChooser,
  })),
);

export function HomeRoute() {
  useDocumentTitle('Home');
  return (
    <HomeContent
      chooser={
        <Suspense fallback={null}>
          <InlineJurisdictionChooser />
        </Suspense>
      }
    />
  );
}
