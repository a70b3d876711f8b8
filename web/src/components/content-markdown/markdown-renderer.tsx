import { Box, Link, Tooltip } from '@mui/material';
import {
  createElement,
  Fragment,
  type ComponentProps,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Link as RouterLink } from 'react-router';
import { useRenderEnvironment } from '../../lib/render-environment';
import { MARKDOWN_FRAGMENT, type MarkdownNode } from './markdown-trees';

/** docs/requirements/public-site.md#links-in-content: 'In a new tab, visit' followed by the address. */
export const NEW_TAB_TOOLTIP = 'In a new tab, visit';

type LinkKind = { kind: 'in-page'; id: string } | { kind: 'in-app'; to: string } | { kind: 'external'; href: string };

/** The id a `#…` link points at; an escape that cannot be decoded is used as written rather than breaking the page. */
function fragmentId(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * Link rules (docs/requirements/public-site.md#links-in-content): `#…` stays on the page; our own domain or a path starting with
 * `/` navigates in the app; anything else opens in a new tab. Links are classified by the address the browser
 * resolves them to, never by how the text starts (`/\evil.com` resolves to another host). "Own domain" is the
 * host name the portal is served from (any port), over http or https.
 */
export function classifyLink(
  href: string,
  location: Pick<Location, 'hostname' | 'origin'> = window.location,
): LinkKind {
  if (href.startsWith('#')) return { kind: 'in-page', id: fragmentId(href.slice(1)) };
  try {
    const url = new URL(href, location.origin);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === location.hostname)
      return { kind: 'in-app', to: `${url.pathname}${url.search}${url.hash}` };
  } catch {
    // not a URL we can read: treat as external
  }
  return { kind: 'external', href };
}

/** docs/requirements/public-site.md#images-in-content: image sources in rendered content are reduced to their path (served on our origin by the /uploads proxy). */
export function imagePath(src: string): string {
  try {
    // Only the path is kept, so any base will do (the server renders without a window).
    return new URL(src, 'http://localhost').pathname;
  } catch {
    return '';
  }
}

function scrollToId(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ behavior: 'smooth', block: 'start' });
  window.history.replaceState(window.history.state, '', `#${encodeURIComponent(id)}`);
}

function ContentLink({ href = '', children, ...rest }: ComponentProps<'a'>) {
  // A link whose scheme was not allowed arrives with an empty href: render its text, not a dead link.
  const { location } = useRenderEnvironment();
  if (!href) return <span>{children}</span>;
  const link = classifyLink(href, location);
  if (link.kind === 'in-page') {
    return (
      <Link href={href} onClick={(e) => scrollToId(e, link.id)} {...rest}>
        {children}
      </Link>
    );
  }
  if (link.kind === 'in-app') {
    return (
      <Link component={RouterLink} to={link.to} {...rest}>
        {children}
      </Link>
    );
  }
  return (
    <Tooltip title={`${NEW_TAB_TOOLTIP} ${link.href}`} describeChild>
      <Link href={link.href} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </Link>
    </Tooltip>
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each takes its own tag's props
const components: Record<string, ComponentType<any>> = {
  a: ContentLink,
  img: ({ src, alt, ...rest }: ComponentProps<'img'>) => {
    const path = typeof src === 'string' ? imagePath(src) : '';
    return path ? (
      <Box
        component="img"
        src={path}
        alt={alt ?? ''}
        loading="lazy"
        sx={{ maxWidth: '100%', height: 'auto' }}
        {...rest}
      />
    ) : null;
  },
  // GFM task-list checkboxes are read-only; name them so assistive technology can tell their state.
  input: (props: ComponentProps<'input'>) =>
    props.type === 'checkbox' ? (
      <input {...props} disabled aria-label={props.checked ? 'Done' : 'Not done'} />
    ) : (
      <input {...props} />
    ),
  table: (props: ComponentProps<'table'>) => (
    <Box sx={{ overflowX: 'auto', my: 2 }} tabIndex={0} role="region" aria-label="Table">
      <table {...props} />
    </Box>
  ),
};

function toReact(node: MarkdownNode): ReactNode {
  if (typeof node === 'string') return node;
  const { children, ...props } = node.props;
  const type = node.type === MARKDOWN_FRAGMENT ? Fragment : (components[node.type] ?? node.type);
  const nested = children === undefined ? [] : Array.isArray(children) ? children.map(toReact) : [toReact(children)];
  return createElement(type, node.key === undefined ? props : { ...props, key: node.key }, ...nested);
}

/**
 * A parsed markdown tree (markdown-parser.ts) as React elements: links follow the link rules above, images keep only
 * their path, task-list checkboxes are read-only and named, tables scroll on their own.
 */
export function MarkdownRenderer({ tree }: { tree: MarkdownNode }) {
  return (
    <Box
      className="content-markdown"
      sx={{
        '& h1, & h2, & h3': { color: 'primary.main', scrollMarginTop: 16 },
        '& table': { borderCollapse: 'collapse', minWidth: '100%' },
        '& th, & td': {
          border: '1px solid',
          borderColor: 'grey.300',
          px: 1.5,
          py: 1,
          textAlign: 'left',
          verticalAlign: 'top',
        },
        '& th': { bgcolor: 'grey.100' },
        '& li.task-list-item': { listStyle: 'none' },
        '& blockquote': { borderLeft: '4px solid', borderColor: 'secondary.main', m: 0, pl: 2 },
        '& code': { bgcolor: 'grey.100', px: 0.5, borderRadius: 0.5 },
        lineHeight: 1.6,
      }}
    >
      {toReact(tree)}
    </Box>
  );
}
