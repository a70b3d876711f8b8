import { Skeleton } from '@mui/material';
import { lazy, memo, Suspense } from 'react';

const loadRenderer = () => import('./content-markdown');
let loaded: Awaited<ReturnType<typeof loadRenderer>> | undefined;
const ContentMarkdown = lazy(() => loadRenderer().then((m) => ({ default: m.ContentMarkdown })));

/**
 * A server-rendered page that shows markdown (ContentMarkdown's root has the `content-markdown` class) loads the
 * renderer before it hydrates. Otherwise its Suspense boundary would still wait for the renderer when the first
 * update arrives (the session check changes a context above it), and React would swap the server's markup for the
 * skeleton until the chunk is here: a layout shift (docs/decisions/0018-server-rendering.md).
 */
export async function loadContentMarkdownFor(doc: Document): Promise<void> {
  if (doc.querySelector('.content-markdown')) loaded = await loadRenderer();
}

/**
 * The markdown renderer (react-markdown + GFM, about 60 KB gzip) loads after the page's first render, so the
 * home page and the dialogs show without waiting for it; a few skeleton lines stand in meanwhile. Once loaded it
 * renders without suspending. Memoised: parsing markdown is the costly part of a re-render of the same text.
 */
export const LazyContentMarkdown = memo(function LazyContentMarkdown({ children }: { children: string }) {
  const Renderer = loaded?.ContentMarkdown ?? ContentMarkdown;
  return (
    <Suspense
      fallback={
        <div aria-busy="true">
          <Skeleton variant="text" />
          <Skeleton variant="text" width="80%" />
        </div>
      }
    >
      <Renderer>{children}</Renderer>
    </Suspense>
  );
});
