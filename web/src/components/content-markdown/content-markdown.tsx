import { Skeleton } from '@mui/material';
import { lazy, memo, Suspense } from 'react';
import { useMarkdownTrees } from './markdown-trees';

// Two chunks after the page's first render: the renderer (our components for links, images and tables, 4 KB
// gzip), and the parser (micromark, GFM and the conversion to React props, 53 KB gzip), which a server-rendered page
// does not need while it hydrates (its trees came with it). Once a chunk is here it is used directly; until then a
// lazy stand-in suspends (a plain `use()` of the import would make every later render depend on React having seen
// the promise settle).
let renderer: typeof import('./markdown-renderer') | undefined;
let parser: typeof import('./markdown-parser') | undefined;
const loadRenderer = () => import('./markdown-renderer').then((loaded) => (renderer = loaded));
const RendererWhileLoading = lazy(() => loadRenderer().then((loaded) => ({ default: loaded.MarkdownRenderer })));
const ParserWhileLoading = lazy(() =>
  import('./markdown-parser').then((loaded) => {
    parser = loaded;
    return { default: MarkdownContent };
  }),
);

/**
 * A server-rendered page that shows markdown (the renderer's root has the `content-markdown` class) loads the
 * renderer before it hydrates. Otherwise its Suspense boundary would still wait for the renderer when the first
 * update arrives (the session check changes a context above it), and React would swap the server's markup for the
 * skeleton until the chunk is here: a layout shift (docs/decisions/0018-server-rendering.md).
 */
export async function loadContentMarkdownFor(doc: Document): Promise<void> {
  if (doc.querySelector('.content-markdown')) await loadRenderer();
}

function MarkdownContent({ markdown }: { markdown: string }) {
  const trees = useMarkdownTrees();
  let tree = trees.get(markdown);
  if (!tree) {
    if (!parser) return <ParserWhileLoading markdown={markdown} />;
    tree = parser.parseMarkdown(markdown);
    trees.record?.(markdown, tree);
  }
  const Renderer = renderer?.MarkdownRenderer ?? RendererWhileLoading;
  return <Renderer tree={tree} />;
}

/**
 * CMS markdown (markdown-parser.ts says what is rendered and what is not, markdown-renderer.tsx how links, images
 * and tables behave). The page shows without waiting for the markdown code; a few skeleton lines stand in until it
 * is here. Memoised: parsing is the costly part of a re-render of the same text.
 */
export const ContentMarkdown = memo(function ContentMarkdown({ children }: { children: string }) {
  return (
    <Suspense
      fallback={
        <div aria-busy="true">
          <Skeleton variant="text" />
          <Skeleton variant="text" width="80%" />
        </div>
      }
    >
      <MarkdownContent markdown={children} />
    </Suspense>
  );
});
