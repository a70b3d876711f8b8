import { createContext, use, type ReactNode } from 'react';

/**
 * Parsed markdown, ready for React: a tag name with its React props (`className`, `aria-describedby`, `style`…),
 * or text. The parser makes it (markdown-parser.ts) and the renderer only maps tags to components
 * (markdown-renderer.tsx), so a page that arrives with its trees hydrates without parsing or converting anything.
 * Plain JSON: it travels in a server-rendered page's state.
 */
export type MarkdownNode = string | MarkdownElement;
export interface MarkdownElement {
  /** A tag name, or MARKDOWN_FRAGMENT for the root. */
  type: string;
  props: { [name: string]: unknown; children?: MarkdownNode | MarkdownNode[] };
  key?: string;
}
export const MARKDOWN_FRAGMENT = '#fragment';

/**
 * The parsed markdown of a server-rendered page, by source text (docs/decisions/0018-server-rendering.md). The server
 * records every tree it renders and sends them with the page's state; the browser hydrates from them instead of
 * parsing again (parsing was most of a topic page's hydration work), and loads the parser only for other text.
 */
export interface MarkdownTrees {
  get(markdown: string): MarkdownNode | undefined;
  /** Server rendering only: remembers a tree the render parsed, to send with the page. */
  record?(markdown: string, tree: MarkdownNode): void;
}

/** A page's trees as they travel in its JSON state. */
export type SerializedMarkdownTrees = Array<[markdown: string, tree: MarkdownNode]>;

const noTrees: MarkdownTrees = { get: () => undefined };
const MarkdownTreesContext = createContext<MarkdownTrees>(noTrees);

/** The trees a server render parsed; `serialize()` gives them for the page's state. */
export function recordMarkdownTrees(): MarkdownTrees & { serialize(): SerializedMarkdownTrees } {
  const trees = new Map<string, MarkdownNode>();
  return {
    get: (markdown) => trees.get(markdown),
    record: (markdown, tree) => void trees.set(markdown, tree),
    serialize: () => [...trees],
  };
}

/** The trees a server-rendered page arrived with. */
export function receivedMarkdownTrees(serialized: SerializedMarkdownTrees | undefined): MarkdownTrees {
  if (!serialized?.length) return noTrees;
  const trees = new Map(serialized);
  return { get: (markdown) => trees.get(markdown) };
}

export function MarkdownTreesProvider({ value, children }: { value?: MarkdownTrees; children: ReactNode }) {
  return <MarkdownTreesContext value={value ?? noTrees}>{children}</MarkdownTreesContext>;
}

export function useMarkdownTrees(): MarkdownTrees {
  return use(MarkdownTreesContext);
}
