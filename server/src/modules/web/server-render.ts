import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts';
import { cookieValue } from '../../content/preview';
import { UpstreamUnavailable, type CacheLookup } from '../../content/cache';
import { sendCachedAnswer } from '../../content/send-answer';
import { clearSessionCookie, lookupSession, sessionCookieOf } from '../../platform/session';

/** The part of web/src/entry-server.tsx the server calls (the bundle is loaded at run time from web/dist-ssr). */
interface ServerEntry {
  configureServerRendering(options: {
    publicUrl: string;
    content: (url: string) => Promise<{ status: number; payload: unknown }>;
  }): void;
  pageVariant(request: PageRequest): string | undefined;
  /** Whether the page is for logged-in users only (docs/decisions/0034-server-rendered-portal-pages.md). */
  pageRequiresLogin?(path: string): boolean;
  renderPage(request: PageRequest): Promise<{ status: number; head: string; root: string; state: string } | undefined>;
}

interface PageRequest {
  path: string;
  cookies: { region: string | undefined; license: string | undefined };
  userAgent: string;
  sessionCookie: boolean;
  /** Only for a page that requires a login, once the server has checked the session. */
  session?: { loggedIn: true };
}

const HTML = 'text/html; charset=utf-8';
// Pages depend on cookies: a shared cache must not keep them, the browser revalidates with the ETag.
const PAGE_CACHE_CONTROL = 'private, no-cache';
// A page rendered for one session (docs/decisions/0034): no cache anywhere may keep it, not even the browser's.
const PERSONAL_PAGE_CACHE_CONTROL = 'private, no-store';

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

export type PageSender = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

/**
 * Server-rendered public pages (docs/decisions/0018-server-rendering.md), cached per (page, jurisdiction, dialog
 * state) in the content proxy's page cache, which the CMS webhook invalidates with the content. Answers undefined
 * when the web app has no server build (`npm run build` makes one) or on a content-preview instance (drafts are
 * per editor): every page is then the browser-rendered index.html.
 */
export async function createPageSender(
  app: FastifyInstance,
  options: { webDistDir: string; publicUrl: string; preview: boolean },
): Promise<PageSender | undefined> {
  const entryFile = join(dirname(options.webDistDir), 'dist-ssr', 'entry-server.js');
  const templateFile = join(options.webDistDir, 'index.html');
  if (options.preview || !existsSync(entryFile) || !existsSync(templateFile)) return undefined;
  const entry = (await import(pathToFileURL(entryFile).href)) as ServerEntry;
  entry.configureServerRendering({
    publicUrl: options.publicUrl,
    content: async (url) => {
      const { status, body } = await app.contentService.readPublished(url, app.log);
      return { status, payload: body };
    },
  });
  const template = pageTemplate(readFileSync(templateFile, 'utf8'), fontPreloads(options.webDistDir));
  const pages = app.contentService.pages;
  async function renderHtml(request: PageRequest) {
    const page = await entry.renderPage(request);
    if (!page) return undefined;
    const html = template
      .replace('<!--app-head-->', page.head)
      .replace('<!--app-root-->', page.root)
      .replace('<!--app-state-->', page.state);
    return { status: page.status, html };
  }
  async function render(key: string, request: PageRequest, log: FastifyBaseLogger) {
    const started = performance.now();
    const page = await renderHtml(request);
    if (!page) throw new UpstreamUnavailable('the page content could not be read');
    // Page requests are not access-logged (platform/logger.ts isQuietRequest): a render is worth a line.
    log.info({ page: key, status: page.status, ms: Math.round(performance.now() - started) }, 'page rendered');
    return { kind: 'ok' as const, body: Buffer.from(page.html), contentType: HTML, status: page.status };
  }

  /**
   * A page for logged-in users (docs/decisions/0034): without an active session, a redirect to the login page that
   * comes back here; with one, the page rendered for this session alone, never stored in the page cache.
   */
  async function sendPersonalPage(request: FastifyRequest, reply: FastifyReply, pageRequest: PageRequest) {
    const lookup = await lookupSession(request);
    if (lookup.status !== 'valid' || lookup.session.stage !== 'active') {
      if (lookup.status === 'expired') clearSessionCookie(reply);
      const next = request.url.startsWith('/') && !request.url.startsWith('//') ? request.url : pageRequest.path;
      await reply
        .code(302)
        .header('cache-control', PERSONAL_PAGE_CACHE_CONTROL)
        .header('location', `/login?next=${encodeURIComponent(next)}`)
        .send();
      return true;
    }
    const started = performance.now();
    let page: Awaited<ReturnType<typeof renderHtml>>;
    try {
      page = await renderHtml({ ...pageRequest, session: { loggedIn: true } });
    } catch (err) {
      request.log.error({ err }, 'server rendering failed; the browser renders the page');
      return false;
    }
    if (!page) return false;
    request.log.info(
      { page: pageRequest.path, status: page.status, ms: Math.round(performance.now() - started) },
      'personal page rendered',
    );
    await reply
      .code(page.status)
      .header('cache-control', PERSONAL_PAGE_CACHE_CONTROL)
      .header('vary', 'cookie')
      .type(HTML)
      .send(page.html);
    return true;
  }

  return async (request, reply) => {
    const pageRequest: PageRequest = {
      path: request.url.split('?')[0] ?? '/',
      cookies: {
        region: cookieValue(request.headers.cookie, REGION_COOKIE),
        license: cookieValue(request.headers.cookie, LICENSE_COOKIE),
      },
      userAgent: request.headers['user-agent'] ?? '',
      // Only whether one was sent: the page is shared by every visitor who sent one (docs/decisions/0018).
      sessionCookie: sessionCookieOf(request) !== undefined,
    };
    if (entry.pageRequiresLogin?.(pageRequest.path)) return sendPersonalPage(request, reply, pageRequest);
    const key = entry.pageVariant(pageRequest);
    if (key === undefined) return false;
    let answer = pages.fresh(key);
    if (!answer) {
      // A render waits for the CMS and the renderer: counted per client like the proxy's uncached reads, so a run
      // of made-up /topics/… URLs is limited (429) while cached pages stay free (docs/decisions/0032).
      if (!pages.has(key)) await app.contentService.countUncached(request);
      let lookup: CacheLookup;
      try {
        lookup = await pages.get(key, () => render(key, pageRequest, request.log));
      } catch (err) {
        if (!(err instanceof UpstreamUnavailable))
          request.log.error({ err }, 'server rendering failed; the browser renders the page');
        return false;
      }
      if (lookup.kind !== 'ok') return false;
      answer = lookup.answer;
    }
    // A not-found state (unknown path, unknown or unpublished topic) answers 404 with noindex, so search engines drop
    // it; every other page 200. The brotli/gzip forms were made once, when the page was stored
    // (docs/decisions/0019): the not-found handler that calls this is not compressed per request.
    if (answer.status === 404) request.log.info({ path: pageRequest.path }, 'page not found');
    sendCachedAnswer(request, reply.code(answer.status ?? 200), answer, {
      cacheControl: PAGE_CACHE_CONTROL,
      vary: 'cookie, user-agent',
    });
    return true;
  };
}
