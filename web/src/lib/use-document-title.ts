import { createContext, useContext, useEffect } from 'react';

export const SITE_NAME = 'Medicare Provider Portal';
/** The description of a page that has none of its own (index.html carries the same text for the browser-rendered shell). */
export const SITE_DESCRIPTION =
  'Medicare guidance and provider portal accounts for J5 (Iowa, Kansas, Missouri, Nebraska) and J8 (Indiana, Michigan) Part A and Part B providers.';

/** What a page puts in `<title>` and `<meta name="description">`. */
export interface PageHead {
  title: string;
  description: string;
  /** The page is a not-found state: answered 404, `noindex` (docs/requirements/public-site.md#every-page). */
  notFound: boolean;
  /** The page has moved to this path: answered 301 with it (a topic's former address). */
  movedTo?: string;
}

export function documentTitle(title: string | undefined): string {
  return title ? `${title} | ${SITE_NAME}` : SITE_NAME;
}

/**
 * Server rendering only: effects do not run there, so the page's head is recorded while it renders and the server
 * writes it into the first HTML (docs/decisions/0018-server-rendering.md).
 */
export class PageHeadRecorder {
  head: PageHead = { title: SITE_NAME, description: SITE_DESCRIPTION, notFound: false };
  record(head: PageHead) {
    this.head = head;
  }
}

export const PageHeadRecorderContext = createContext<PageHeadRecorder | null>(null);

/**
 * Every page names itself in the browser tab and for screen readers, and describes itself for search engines; the
 * server-rendered HTML already has both, and the browser keeps them in step as the user navigates.
 */
export function useDocumentTitle(
  title: string | undefined,
  options: { description?: string; notFound?: boolean; movedTo?: string } = {},
) {
  const fullTitle = documentTitle(title);
  const description = options.description || SITE_DESCRIPTION;
  const notFound = options.notFound ?? false;
  useContext(PageHeadRecorderContext)?.record({ title: fullTitle, description, notFound, movedTo: options.movedTo });
  useEffect(() => {
    document.title = fullTitle;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
    let robots = document.querySelector('meta[name="robots"]');
    if (notFound && !robots) {
      robots = Object.assign(document.createElement('meta'), { name: 'robots', content: 'noindex' });
      document.head.append(robots);
    } else if (!notFound) robots?.remove();
  }, [fullTitle, description, notFound]);
}
