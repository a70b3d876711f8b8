import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ContentMarkdown } from '../content-markdown';
import { parseMarkdown } from '../markdown-parser';
import { classifyLink, imagePath } from '../markdown-renderer';
import {
  MARKDOWN_FRAGMENT,
  MarkdownTreesProvider,
  receivedMarkdownTrees,
  recordMarkdownTrees,
  type MarkdownTrees,
} from '../markdown-trees';

const here = { hostname: 'portal.example.com', origin: 'https://portal.example.com' };

describe('classifyLink (docs/requirements/public-site.md#links-in-content)', () => {
  it('keeps # links on the page', () => {
    expect(classifyLink('#how-to-submit', here)).toEqual({ kind: 'in-page', id: 'how-to-submit' });
  });
  it('navigates in the app for / paths and for our own domain, whatever the port', () => {
    expect(classifyLink('/topics/privacy', here)).toEqual({ kind: 'in-app', to: '/topics/privacy' });
    expect(classifyLink('https://portal.example.com/topics/contact?x=1#y', here)).toEqual({
      kind: 'in-app',
      to: '/topics/contact?x=1#y',
    });
    expect(classifyLink('http://portal.example.com:3000/topics/contact', here)).toEqual({
      kind: 'in-app',
      to: '/topics/contact',
    });
  });
  it('opens everything else in a new tab, protocol-relative links included', () => {
    expect(classifyLink('https://www.cms.gov/medicare', here).kind).toBe('external');
    expect(classifyLink('//evil.example/x', here).kind).toBe('external');
    expect(classifyLink('mailto:help@example.com', here).kind).toBe('external');
    expect(classifyLink('https://other.example.com/', here).kind).toBe('external');
  });
  it('classifies by the address the browser resolves: a backslash path that leaves the host is external', () => {
    // Browsers read `/\evil.com` as `//evil.com`: another host, though the text starts with one slash.
    expect(classifyLink('/\\evil.example/x', here)).toEqual({ kind: 'external', href: '/\\evil.example/x' });
    expect(classifyLink('/\\/evil.example', here).kind).toBe('external');
  });
  it('keeps a # link whose escape cannot be decoded on the page instead of throwing', () => {
    expect(classifyLink('#%E0%A4%A', here)).toEqual({ kind: 'in-page', id: '%E0%A4%A' });
  });
});

describe('imagePath', () => {
  it('reduces image sources to their path', () => {
    expect(imagePath('http://localhost:1337/uploads/claims_flow_1a2b.svg')).toBe('/uploads/claims_flow_1a2b.svg');
    expect(imagePath('https://cdn.example.com/uploads/a.png?w=100#x')).toBe('/uploads/a.png');
    expect(imagePath('/uploads/b.png')).toBe('/uploads/b.png');
  });
});

function renderInRouter(element: ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }]);
  return render(<RouterProvider router={router} />);
}

/** Renders markdown and waits for the lazily loaded renderer (and parser) to show it. */
async function renderMarkdown(markdown: string, trees?: MarkdownTrees) {
  const rendered = renderInRouter(
    <MarkdownTreesProvider value={trees}>
      <ContentMarkdown>{markdown}</ContentMarkdown>
    </MarkdownTreesProvider>,
  );
  await screen.findByText((_, element) => element?.classList.contains('content-markdown') ?? false);
  return rendered;
}

describe('ContentMarkdown', () => {
  it('renders GFM: tables, strikethrough, task lists, footnotes and autolinks', async () => {
    const { container } = await renderMarkdown(
      [
        '| Code | Meaning |',
        '| --- | --- |',
        '| CO-16 | Missing information |',
        '',
        '~~old rule~~',
        '',
        '- [x] Done step',
        '- [ ] Open step',
        '',
        'See www.cms.gov today.[^1]',
        '',
        '[^1]: Footnote text.',
      ].join('\n'),
    );
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(container.querySelector('del')?.textContent).toBe('old rule');
    expect(screen.getByRole('checkbox', { name: 'Done' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Not done' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'www.cms.gov' })).toHaveAttribute('href', 'http://www.cms.gov');
    expect(container.querySelector('section.footnotes')).not.toBeNull();
  });

  it('opens external links in a new tab with noopener noreferrer', async () => {
    await renderMarkdown('[CMS](https://www.cms.gov/)');
    const link = screen.getByRole('link', { name: 'CMS' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleDescription('In a new tab, visit https://www.cms.gov/');
  });

  it('neutralises links with schemes other than http, https, irc, ircs, mailto and xmpp', async () => {
    const { container } = await renderMarkdown(
      '[click me](javascript:alert(1)) [data](data:text/html,hi) [irc](irc://irc.example.org/medicare) [chat](xmpp:help@example.org)',
    );
    expect(screen.queryByRole('link', { name: 'click me' })).toBeNull();
    expect(screen.getByText('click me').tagName).toBe('SPAN');
    expect(screen.queryByRole('link', { name: 'data' })).toBeNull();
    expect(screen.getByRole('link', { name: 'irc' })).toHaveAttribute('href', 'irc://irc.example.org/medicare');
    expect(screen.getByRole('link', { name: 'chat' })).toHaveAttribute('href', 'xmpp:help@example.org');
    expect(container.innerHTML).not.toContain('javascript:');
  });

  it('gives headings ids for in-page links and renders no raw HTML', async () => {
    const { container } = await renderMarkdown(
      '## How to submit\n\n[jump](#how-to-submit)\n\n<script>window.hacked = true</script><b>bold?</b>',
    );
    expect(container.querySelector('h2#how-to-submit')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'jump' })).toHaveAttribute('href', '#how-to-submit');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });

  it('renders a # link with a malformed escape as a link, and the rest of the content too', async () => {
    await renderMarkdown('[broken](#%E0%A4%A)\n\nAfter the link.');
    expect(screen.getByRole('link', { name: 'broken' })).toHaveAttribute('href', '#%E0%A4%25A');
    expect(screen.getByText('After the link.')).toBeInTheDocument();
  });

  it('reduces image sources to their path', async () => {
    await renderMarkdown('![Claim flow](http://localhost:1337/uploads/flow.svg)');
    expect(screen.getByRole('img', { name: 'Claim flow' })).toHaveAttribute('src', '/uploads/flow.svg');
  });
});

describe('parsed markdown sent with a server-rendered page', () => {
  it('is recorded by the server render as the parser makes it, in plain JSON', async () => {
    const recorder = recordMarkdownTrees();
    await renderMarkdown('## Deadlines\n\nFile within **one year**.', recorder);
    const [[markdown, tree]] = recorder.serialize() as [[string, unknown]];
    expect(markdown).toBe('## Deadlines\n\nFile within **one year**.');
    expect(tree).toEqual(parseMarkdown(markdown));
    expect(JSON.parse(JSON.stringify(tree))).toEqual(tree);
    expect(JSON.stringify(tree)).toContain('"id":"deadlines"');
  });

  it('is rendered as received in the browser, instead of parsing the text again', async () => {
    const received = receivedMarkdownTrees([
      [
        'Plain text',
        { type: MARKDOWN_FRAGMENT, props: { children: [{ type: 'em', props: { children: 'From the server' } }] } },
      ],
    ]);
    const { container } = await renderMarkdown('Plain text', received);
    expect(container.querySelector('em')?.textContent).toBe('From the server');
    expect(screen.queryByText('Plain text')).toBeNull();
  });

  it('parses text it did not receive', async () => {
    await renderMarkdown('Other **text**', receivedMarkdownTrees([['Plain text', { type: 'em', props: {} }]]));
    expect(screen.getByText('text').tagName).toBe('STRONG');
  });

  it('shows raw HTML as text and empties addresses with other schemes', () => {
    const tree = parseMarkdown('<b>bold?</b> [x](javascript:alert(1)) ![y](data:image/png;base64,AA)');
    const json = JSON.stringify(tree);
    expect(json).toContain('"<b>"');
    expect(json).not.toContain('"type":"b"');
    expect(json).not.toContain('javascript:');
    expect(json).not.toContain('data:');
  });
});
