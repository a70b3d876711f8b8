import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { urlAttributes } from 'html-url-attributes';
import { defaultUrlTransform } from 'react-markdown';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { MARKDOWN_FRAGMENT, type MarkdownElement, type MarkdownNode } from './markdown-trees';

// react-markdown's pipeline, run apart from rendering so a server-rendered page can send its parsed trees and the
// browser hydrates without parsing (docs/decisions/0018-server-rendering.md). Raw HTML is kept as a node only to be
// shown as text below, as react-markdown does.
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeSlug)
  .freeze();

function element(type: string, props: MarkdownElement['props'], key?: string): MarkdownElement {
  return key === undefined ? { type, props } : { type, props, key };
}

/**
 * CMS markdown as a tree of tags with React props (MarkdownNode): GFM (autolinks, tables, footnotes, strikethrough,
 * task lists), headings with ids for in-page links, raw HTML shown as its text, never as markup, and link and image
 * addresses limited to http, https, irc, ircs, mailto, xmpp, relative and `#` addresses (react-markdown's
 * `defaultUrlTransform`: anything else, such as `javascript:`, becomes empty). HTML properties become React props
 * as react-markdown makes them (`hast-util-to-jsx-runtime`, with plain objects in place of React elements).
 */
export function parseMarkdown(markdown: string): MarkdownNode {
  const tree = processor.runSync(processor.parse(markdown));
  visit(tree, (node, index, parent) => {
    if (node.type === 'raw' && parent && index !== undefined) {
      parent.children[index] = { type: 'text', value: node.value };
      return;
    }
    if (node.type !== 'element') return;
    for (const [name, tags] of Object.entries(urlAttributes)) {
      if (Object.hasOwn(node.properties, name) && (tags === null || tags.includes(node.tagName)))
        node.properties[name] = defaultUrlTransform(String(node.properties[name] ?? ''));
    }
  });
  return toJsxRuntime(tree, {
    Fragment: MARKDOWN_FRAGMENT,
    jsx: element,
    jsxs: element,
    ignoreInvalidStyle: true,
    passKeys: true,
  }) as unknown as MarkdownNode;
}
