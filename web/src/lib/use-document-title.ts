import { useEffect } from 'react';

const SITE = 'Medicare Provider Portal';

/** Every page names itself in the browser tab and for screen readers. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} | ${SITE}` : SITE;
  }, [title]);
}
