import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { UpstreamUnavailable, type CachedAnswer, type CacheLookup } from '../../content/cache';
import type { ContentService } from '../../content/plugin';

/**
 * The render flow of server-rendered pages (docs/decisions/0018-server-rendering.md, 0060): loads the web app's
 * server bundle, renders a page request to HTML and keeps shared pages in the content proxy's page cache. routes.ts
 * turns an HTTP request into a `PageRequest`, checks the session of a personal page and sends the answer.
 */

/** The part of web/src/entry-server.tsx the server calls (the bundle is loaded at run time from web/dist-ssr). */
interface ServerEntry {
  configureServerRendering(options: {
    publicUrl: string;
    content: (url: string) => Promise<{ status: number; payload: unknown }>;
  }): void;
  pageVariant(request: PageRequest): string | undefined;
  /** Whether the page is for logged-in users only (docs/decisions/0060). */
  pageRequiresLogin?(path: string): boolean;
  /** Whether the page is the help-desk console's: drawn for the request's console session (docs/decisions/0088). */
  pageForConsole?(path: string): boolean;
  renderPage(
    request: PageRequest,
  ): Promise<{ status: number; location?: string; head: string; root: string; state: string } | undefined>;
}

/**
 * What a personal page is rendered with: the checked session, and whether its user administers a location (the
 * header's console link is then in the first HTML, so nothing shifts when the browser asks the session).
 */
export interface PersonalSession {
  loggedIn: true;
  administersLocation: boolean;
}

export interface PageRequest {
  /** The page's path; a personal page's (rendered for one session, never cached) carries its query too. */
  path: string;
  cookies: { region: string | undefined; license: string | undefined };
  userAgent: string;
  sessionCookie: boolean;
  /**
   * The session the server checked: a page that requires a login is rendered for it alone; a shared page asked with
   * an active session's cookie is rendered logged in, one page per kind of session (administrator or not).
   */
  session?: PersonalSession;
  /**
   * With `session`, or on a console page: the page's own API reads, answered in-process for this request with its
   * cookies (routes.ts).
   */
  readApi?: (path: string, method?: 'POST') => Promise<{ status: number; payload: unknown }>;
}

export const HTML = 'text/html; charset=utf-8';

/** The fonts the first screen uses (the theme's Lato, regular and bold), preloaded so the text does not wait for the CSS. */
function fontPreloads(webDistDir: string): string {
  const assets = join(webDistDir, 'assets');
  if (!existsSync(assets)) return '';
  return readdirSync(assets)
    .filter((name) => /^lato-latin-(400|700)-normal-[\w-]+\.woff2$/.test(name))
    .map((name) => `<link rel="preload" as="font" type="font/woff2" href="/assets/${name}" crossorigin>`)
    .join('');
}

// index.html's own title and description are the browser-rendered shell's; a rendered page brings its own.
const SHELL_HEAD_TAGS = [/<title>[^<]*<\/title>\s*/, /<meta\s+name="description"[^>]*>\s*/];

/** The built index.html as rendered pages use it: without the shell's title and description, with the font preloads. */
export function pageTemplate(indexHtml: string, preloads: string): string {
  const template = SHELL_HEAD_TAGS.reduce((html, tag) => html.replace(tag, ''), indexHtml);
  return template.replace('<!--app-head-->', `${preloads}<!--app-head-->`);
}

export interface PageRenderer {
  /** Whether the page is for logged-in users only: rendered per session, never cached (docs/decisions/0060). */
  requiresLogin(path: string): boolean;
  /**
   * Whether the page is the help-desk console's: rendered per request with the console session its API reads find
   * (signed in, or the sign-in screen), never cached (docs/decisions/0088).
   */
  forConsole(path: string): boolean;
  /**
   * A shared page from the page cache, rendered on a miss, or undefined when the path is not a server-rendered page or
   * it cannot be rendered now (the browser renders it). `beforeRender` runs before a page not in the cache waits for
   * the CMS (the per-client budget of uncached reads: it may throw 429).
   */
  sharedPage(
    request: PageRequest,
    log: FastifyBaseLogger,
    beforeRender: () => Promise<void>,
  ): Promise<CachedAnswer | undefined>;
  /**
   * A page rendered for one request (a logged-in session's, or a console page's), or undefined when it cannot be
   * rendered (the browser renders it).
   */
  personalPage(
    request: PageRequest,
    log: FastifyBaseLogger,
    session?: PersonalSession,
  ): Promise<{ status: number; html: string } | undefined>;
}

/**
 * The renderer of public and personal pages (docs/decisions/0018-server-rendering.md). Answers undefined when the web
 * app has no server build (`npm run build` makes one): every page is then the browser-rendered index.html.
 */
export async function createPageRenderer(
  content: Pick<ContentService, 'readPublished' | 'pages'>,
  log: FastifyBaseLogger,
  options: { webDistDir: string; publicUrl: string },
): Promise<PageRenderer | undefined> {
  const entryFile = join(dirname(options.webDistDir), 'dist-ssr', 'entry-server.js');
  const templateFile = join(options.webDistDir, 'index.html');
  if (!existsSync(entryFile) || !existsSync(templateFile)) return undefined;
  const entry = (await import(pathToFileURL(entryFile).href)) as ServerEntry;
  entry.configureServerRendering({
    publicUrl: options.publicUrl,
    content: async (url) => {
      const { status, body } = await content.readPublished(url, log);
      return { status, payload: body };
    },
  });
  const template = pageTemplate(readFileSync(templateFile, 'utf8'), fontPreloads(options.webDistDir));
  const pages = content.pages;
  async function renderHtml(request: PageRequest) {
    const page = await entry.renderPage(request);
    if (!page) return undefined;
    const html = template
      .replace('<!--app-head-->', page.head)
      .replace('<!--app-root-->', page.root)
      .replace('<!--app-state-->', page.state);
    return { status: page.status, location: page.location, html };
  }
  async function render(key: string, request: PageRequest, log: FastifyBaseLogger) {
    const started = performance.now();
    const page = await renderHtml(request);
    if (!page) throw new UpstreamUnavailable('the page content could not be read');
    // Page requests are not access-logged (platform/logger.ts isQuietRequest): a render is worth a line.
    log.info({ page: key, status: page.status, ms: Math.round(performance.now() - started) }, 'page rendered');
    // A moved page (a topic's former address) is stored as its 301 with the new address, like any other page.
    return {
      kind: 'ok' as const,
      body: Buffer.from(page.html),
      contentType: HTML,
      status: page.status,
      ...(page.location ? { location: page.location } : {}),
    };
  }

  return {
    requiresLogin: (path) => entry.pageRequiresLogin?.(path) ?? false,
    forConsole: (path) => entry.pageForConsole?.(path) ?? false,

    async sharedPage(request, log, beforeRender) {
      const key = entry.pageVariant(request);
      if (key === undefined) return undefined;
      const fresh = pages.fresh(key);
      if (fresh) return fresh;
      // A render waits for the CMS and the renderer: counted per client like the proxy's uncached reads, so a run
      // of made-up /topics/… URLs is limited (429) while cached pages stay free (docs/decisions/0032).
      if (!pages.has(key)) await beforeRender();
      let lookup: CacheLookup;
      try {
        lookup = await pages.get(key, () => render(key, request, log));
      } catch (err) {
        if (!(err instanceof UpstreamUnavailable))
          log.error({ err }, 'server rendering failed; the browser renders the page');
        return undefined;
      }
      return lookup.kind === 'ok' ? lookup.answer : undefined;
    },

    async personalPage(request, log, session) {
      const started = performance.now();
      let page: Awaited<ReturnType<typeof renderHtml>>;
      try {
        page = await renderHtml(session ? { ...request, session } : request);
      } catch (err) {
        log.error({ err }, 'server rendering failed; the browser renders the page');
        return undefined;
      }
      if (page)
        log.info(
          { page: request.path, status: page.status, ms: Math.round(performance.now() - started) },
          'personal page rendered',
        );
      return page;
    },
  };
}
