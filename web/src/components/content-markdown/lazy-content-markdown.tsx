import { Skeleton } from '@mui/material';
import { lazy, Suspense } from 'react';

const ContentMarkdown = lazy(() => import('./content-markdown').then((m) => ({ default: m.ContentMarkdown })));

/**
 * The markdown renderer (react-markdown + GFM, about 100 KB gzip) loads after the page's first render, so the
 * home page and the dialogs show without waiting for it; a few skeleton lines stand in meanwhile.
 */
export function LazyContentMarkdown({ children }: { children: string }) {
  return (
    <Suspense
      fallback={
        <div aria-busy="true">
          <Skeleton variant="text" />
          <Skeleton variant="text" width="80%" />
        </div>
      }
    >
      <ContentMarkdown>{children}</ContentMarkdown>
    </Suspense>
  );
}
