import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LICENSE_COOKIE, PORTAL_REQUEST_HEADER, PORTAL_REQUEST_HEADER_VALUE, REGION_COOKIE } from '@portal/contracts';
import { HELD_FROM_PARAM, PAGE_PATHS } from '@portal/contracts/paths';
import type { Config } from '../../config';
import { cookieValue } from '../../platform/cookie-value';
import { PREVIEW_PAGE_PREFIX } from '../../content/preview';
import { sendCachedAnswer } from '../../content/send-answer';
import { compressForRequest } from '../../content/encodings';
import { administersAnyLocationSql } from '../../identity/admin-guard';
import { overdueRecertificationsSql } from '../recertification/service';
import { PortalError } from '../../platform/portal-error';
import { clearSessionCookie, sessionCookieOf } from '../../identity/sessions/cookie';
import { lookupSession } from '../../identity/sessions/guards';
import { type SessionLookupShape } from '../../identity/sessions/store';
import { createPageRenderer, HTML, type PageRenderer, type PageRequest, type PersonalSession } from './server-render';
import { sitemapXml, SITEMAP_TOPICS_URL } from './sitemap';

/** Text files the web build writes `.br`/`.gz` beside (web/scripts/precompress.mjs): their answer varies with Accept-Encoding. */
const PRECOMPRESSED = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest)(?:\.br|\.gz)?$/;
// Pages depend on cookies: a shared cache must not keep them, the browser revalidates with the ETag.
const PAGE_CACHE_CONTROL = 'private, no-cache';
// A page rendered for one session (docs/decisions/0060): no cache anywhere may keep it, not even the browser's.
const PERSONAL_PAGE_CACHE_CONTROL = 'private, no-store';

/** What the renderer (server-render.ts) needs of a page's HTTP request. */
function pageRequestOf(request: FastifyRequest): PageRequest {
  return {
    path: request.url.split('?')[0] ?? '/',
    cookies: {
      region: cookieValue(request.headers.cookie, REGION_COOKIE),
      license: cookieValue(request.headers.cookie, LICENSE_COOKIE),
    },
    userAgent: request.headers['user-agent'] ?? '',
    // Only whether one was sent: the page is shared by every visitor who sent one (docs/decisions/0018).
    sessionCookie: sessionCookieOf(request) !== undefined,
  };
}

/**
 * A personal page's session lookup: whether the user administers a location and has overdue recertifications, in the
 * same prepared statement.
 */
const SESSION_WITH_ADMIN_FLAGS: SessionLookupShape<{
  administersLocation: SQL<boolean>;
  recertificationOverdue: SQL<boolean>;
}> = {
  name: 'session_lookup_admin_flags',
  extras: (db, userId, now) => ({
    administersLocation: administersAnyLocationSql(db, userId, now),
    recertificationOverdue: overdueRecertificationsSql(db, userId, now),
  }),
};

/**
 * A shared page's session lookup, for a request that sent a session cookie: whether the session is active and its user
 * administers a location (the header's menu differs by it).
 */
const SESSION_WITH_ADMIN_FLAG: SessionLookupShape<{ administersLocation: SQL<boolean> }> = {
  name: 'session_lookup_admin_flag',
  extras: (db, userId, now) => ({ administersLocation: administersAnyLocationSql(db, userId, now) }),
};

/**
 * A personal page's own API reads (its route's `sessionQueries`, web/src/app/page-handle.ts; a `GET`, or a read
 * spelled as a `POST` of `{}`), answered in-process
 * through the same routes, session check and serializers as the browser's call would be, with this request's cookies,
 * client address and user agent: the page is rendered with its data and the browser does not ask for it again.
 */
function ownApiReader(request: FastifyRequest, reply?: FastifyReply) {
  return async (path: string, method: 'GET' | 'POST' = 'GET') => {
    if (!path.startsWith('/api/')) throw new Error(`a page's session query must read the API, not ${path}`);
    const answer = await request.server.inject({
      method,
      url: path,
      // A read the API spells as a POST (`/api/providers/get-easi`) takes an empty object.
      ...(method === 'POST' ? { payload: {} } : {}),
      remoteAddress: request.ip,
      headers: {
        cookie: request.headers.cookie ?? '',
        'user-agent': request.headers['user-agent'] ?? '',
        accept: 'application/json',
        [PORTAL_REQUEST_HEADER]: PORTAL_REQUEST_HEADER_VALUE,
      },
    });
    // A console page's reads stand for the browser's own (it makes none of them once hydrated): the cookies the API set
    // in answering (a console session found ended is cleared, on its API's path and the pages') go with the page.
    const setCookies = answer.headers['set-cookie'];
    if (reply && setCookies) for (const cookie of [setCookies].flat()) reply.header('set-cookie', cookie);
    let payload: unknown;
    try {
      payload = answer.json();
    } catch {
      payload = undefined;
    }
    return { status: answer.statusCode, payload };
  };
}

/**
 * Sends a page drawn for this request alone (a personal or console page): never kept by any cache, and compressed here
 * in the coding the browser accepts, as @fastify/compress would (it does not hook the not-found handler). No secret
 * sits in a page's HTML for input reflected from its URL to be guessed against: no BREACH (docs/decisions/0090).
 */
async function sendDrawnPage(request: FastifyRequest, reply: FastifyReply, page: { status: number; html: string }) {
  const form = await compressForRequest(Buffer.from(page.html), HTML, request.headers['accept-encoding']);
  reply
    .code(page.status)
    .header('cache-control', PERSONAL_PAGE_CACHE_CONTROL)
    .header('vary', form.varies ? 'cookie, accept-encoding' : 'cookie')
    .type(HTML);
  if (form.encoding) reply.header('content-encoding', form.encoding);
  await reply.send(form.body);
}

/** The page's own URL (its query too), never another host's. */
function ownUrl(request: FastifyRequest, pageRequest: PageRequest): string {
  return request.url.startsWith('/') && !request.url.startsWith('//') ? request.url : pageRequest.path;
}

/**
 * Draws a page for this request alone (a personal or console page) and sends it; answers false when the renderer has
 * no such page. Rendered at its whole URL: such a page may read its query (`/admin/recertify?held=…`), as it will once
 * hydrated. `replyCookies`: whether the cookies its API reads set go out with the page (see ownApiReader); `session`:
 * the portal session it is drawn for, if any.
 */
async function drawForRequest(
  renderer: PageRenderer,
  request: FastifyRequest,
  reply: FastifyReply,
  pageRequest: PageRequest,
  options: { replyCookies: boolean; session?: PersonalSession },
): Promise<boolean> {
  const page = await renderer.personalPage(
    {
      ...pageRequest,
      path: ownUrl(request, pageRequest),
      readApi: ownApiReader(request, options.replyCookies ? reply : undefined),
    },
    request.log,
    options.session,
  );
  if (!page) return false;
  await sendDrawnPage(request, reply, page);
  return true;
}

/**
 * A page for logged-in users (docs/decisions/0060): without an active session, a redirect to the login page that
 * comes back here; with one, the page rendered for this session alone, never stored in the page cache. Answers
 * whether it sent an answer.
 */
async function sendPersonalPage(
  renderer: PageRenderer,
  request: FastifyRequest,
  reply: FastifyReply,
  pageRequest: PageRequest,
): Promise<boolean> {
  const lookup = await lookupSession(request, SESSION_WITH_ADMIN_FLAGS);
  if (lookup.status !== 'valid' || lookup.session.stage !== 'active') {
    // A session someone else ended keeps its cookie for the login page's session check, which says why and clears it.
    if (lookup.status === 'expired' && !lookup.endedBecause) clearSessionCookie(reply);
    await reply
      .code(302)
      .header('cache-control', PERSONAL_PAGE_CACHE_CONTROL)
      .header('location', `/login?next=${encodeURIComponent(ownUrl(request, pageRequest))}`)
      .send();
    return true;
  }
  // An administrator with overdue recertifications is held on the recertification screen (docs/decisions/0041): sent
  // there by HTTP, as the web app would send them once hydrated, so the page drawn is the one that stays (issue 39).
  const { administersLocation, recertificationOverdue } = lookup.extras;
  if (administersLocation && recertificationOverdue && pageRequest.path !== PAGE_PATHS.recertify) {
    await reply
      .code(302)
      .header('cache-control', PERSONAL_PAGE_CACHE_CONTROL)
      .header('location', `${PAGE_PATHS.recertify}?${HELD_FROM_PARAM}=${encodeURIComponent(pageRequest.path)}`)
      .send();
    return true;
  }
  return drawForRequest(renderer, request, reply, pageRequest, {
    replyCookies: false,
    session: { loggedIn: true, administersLocation },
  });
}

/**
 * A page of the help-desk console (docs/decisions/0088): drawn for the console session the request's cookie opens, by
 * the console's own API read in-process (the same session lookup, audit and cookie answers as the browser's call):
 * signed in, with the page's data, or the sign-in screen (with why, when the session ended). The console's door (the
 * ops module's onRequest hook) has already answered 404 to a provider session or an address outside the allow-list.
 * Never cached anywhere: one operator's page is never another's.
 */
async function sendConsolePage(
  app: FastifyInstance,
  renderer: PageRenderer,
  request: FastifyRequest,
  reply: FastifyReply,
  pageRequest: PageRequest,
): Promise<boolean> {
  // Not in the page cache: counted per client like the other uncached renders (a run of reloads is limited, 429).
  await app.contentService.countUncached(request);
  // The console's sign-in state is its own API's to say (the page has no session of the portal's).
  return drawForRequest(renderer, request, reply, pageRequest, { replyCookies: true });
}

/** Sends the server-rendered page of a request (server-render.ts); answers false when the browser must render it. */
async function sendPage(
  app: FastifyInstance,
  renderer: PageRenderer,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const pageRequest = pageRequestOf(request);
  if (renderer.requiresLogin(pageRequest.path)) return sendPersonalPage(renderer, request, reply, pageRequest);
  if (renderer.forConsole(pageRequest.path)) return sendConsolePage(app, renderer, request, reply, pageRequest);
  // A shared page asked with the cookie of an active session is drawn logged in, as an administrator or not: one page
  // per kind, shared by every such session (it holds nothing of the user's), so the header does not change once the
  // browser checks the session (issue 39: on a phone the administrator's menu took another row). Another cookie (an
  // ended session, a login waiting for its second factor) keeps the page drawn for a session not yet known.
  if (pageRequest.sessionCookie) {
    const lookup = await lookupSession(request, SESSION_WITH_ADMIN_FLAG);
    if (lookup.status === 'valid' && lookup.session.stage === 'active')
      pageRequest.session = { loggedIn: true, administersLocation: lookup.extras.administersLocation };
  }
  const answer = await renderer.sharedPage(pageRequest, request.log, () => app.contentService.countUncached(request));
  if (!answer) return false;
  // A not-found state (unknown path, unknown or unpublished topic) answers 404 with noindex, so search engines drop
  // it; every other page 200. The brotli/gzip forms were made once, when the page was stored
  // (docs/decisions/0019): the not-found handler that calls this is not compressed per request.
  if (answer.status === 404) request.log.info({ path: pageRequest.path }, 'page not found');
  sendCachedAnswer(request, reply.code(answer.status ?? 200), answer, {
    cacheControl: PAGE_CACHE_CONTROL,
    vary: 'cookie, user-agent',
  });
  return true;
}

/**
 * Serves the built SPA: hashed files under /assets/ are cached for a year (their names change with their
 * content), everything else must be revalidated. Unknown non-API GETs get the server-rendered public page
 * (server-render.ts) or else index.html so the router can render them (including its not-found page); unknown
 * /api/* paths get the JSON 404.
 */
export const staticSitePlugin = fp(
  async (
    app: FastifyInstance,
    options: { webDistDir: string; publicUrl: string; previewHeaders: Record<string, string> },
  ) => {
    const hasBuild = existsSync(join(options.webDistDir, 'index.html'));
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: options.webDistDir,
        wildcard: false,
        index: false,
        cacheControl: false,
        preCompressed: true,
        setHeaders(res, path) {
          res.setHeader(
            'cache-control',
            path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
          if (PRECOMPRESSED.test(path)) res.setHeader('vary', 'accept-encoding');
        },
      });
    } else {
      app.log.warn(
        { webDistDir: options.webDistDir },
        'the web app is not built; run `npm run build` (npm start does it)',
      );
    }
    const renderer = hasBuild ? await createPageRenderer(app.contentService, app.log, options) : undefined;

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (path === '/api' || path.startsWith('/api/')) throw new PortalError(404, 'Not_Found');
      const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !/\.[a-z0-9]{1,8}$/i.test(path);
      if (!wantsPage) throw new PortalError(404, 'Not_Found');
      if (!hasBuild)
        return reply
          .code(503)
          .type('text/plain')
          .send('The web app has not been built yet. Run `npm run build`, then reload.');
      if (path.startsWith(PREVIEW_PAGE_PREFIX)) {
        // An editor's preview (content/preview.ts): rendered in the browser from the signed draft read, never on the
        // server or from a cache; framed by the CMS admin only, and kept out of search engines.
        reply.removeHeader('x-frame-options');
        return reply
          .headers(options.previewHeaders)
          .header('cache-control', 'no-store')
          .header('x-robots-tag', 'noindex')
          .sendFile('index.html');
      }
      if (renderer && (await sendPage(app, renderer, request, reply))) return reply;
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
);

/** `/sitemap.xml` (sitemap.ts), its topics read through the content proxy. */
export const sitemapRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  app.get('/sitemap.xml', async (request, reply) => {
    const res = await app.inject({ method: 'GET', url: SITEMAP_TOPICS_URL });
    const { xml, problem } = sitemapXml(options.config.publicUrl, res.statusCode === 200 ? res.json() : undefined);
    if (problem === 'unexpected_shape') request.log.warn('sitemap: the topics answer did not have the expected shape');
    else if (problem === 'unavailable')
      request.log.warn({ status: res.statusCode }, 'sitemap: topics unavailable, listing the home page only');
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(xml);
  });
};
