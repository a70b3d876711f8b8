import rateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_PATH } from '@portal/contracts/content';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import { LRUCache } from 'lru-cache';
import { WEBHOOK_SECRET_HEADER } from '@portal/contracts/http';
import { PortalError } from '../platform/portal-error';
import { clientKey } from '../platform/rate-limit';
import {
  parseContentPath,
  parseContentRequest,
  parseUploadPath,
  QueryRejected,
  type ContentRequest,
} from './allow-list';
import { ResponseCache, UpstreamUnavailable, type CacheLookup } from './cache';
import { CmsClient } from './cms-client';
import { CmsTokenSource, tokenFile, WebhookSecret, webhookSecretFile } from './handover';
import { PREVIEW_API_PREFIX, verifyPreview } from './preview';
import { sendCachedAnswer } from './send-answer';
import { startInvalidationBroadcast } from './invalidation';
import { createAgents } from './upstream';

export interface ContentPluginOptions {
  config: Config;
  /** The shared database, through which a webhook received here reaches the other instances; none: this instance only. */
  database?: Pick<DatabaseHandle, 'notify' | 'listen'>;
  /** Limits; the defaults suit one portal instance. Tests shrink them. */
  limits?: Partial<ContentLimits>;
}

export interface ContentLimits {
  maxContentBytes: number;
  maxUploadBytes: number;
  contentCacheEntries: number;
  contentCacheBytes: number;
  uploadCacheEntries: number;
  uploadCacheBytes: number;
  retryAfterFailureMs: number;
  /** Consecutive CMS health failures that pause every upstream call for retryAfterFailureMs. */
  breakerThreshold: number;
  /** Requests per client and minute that wait for the CMS (cache misses, CMS 4xx, drafts, upload misses). */
  uncachedPerMinute: number;
  webhookPerMinute: number;
  webhookBodyBytes: number;
  /** Distinct content URLs whose allow-list check is remembered. */
  parsedRequestEntries: number;
}

export const defaultContentLimits: ContentLimits = {
  maxContentBytes: 5 * 1024 * 1024,
  maxUploadBytes: 10 * 1024 * 1024,
  contentCacheEntries: 2000,
  contentCacheBytes: 64 * 1024 * 1024,
  uploadCacheEntries: 500,
  uploadCacheBytes: 64 * 1024 * 1024,
  retryAfterFailureMs: 2000,
  breakerThreshold: 3,
  uncachedPerMinute: 120,
  webhookPerMinute: 300,
  // Strapi's webhook body carries the whole entry (a topic's markdown body); the secret is checked first.
  webhookBodyBytes: 2 * 1024 * 1024,
  parsedRequestEntries: 1000,
};

export interface ContentService {
  readPublished(url: string, log: FastifyBaseLogger): Promise<{ status: number; body: unknown }>;
  /**
   * Counts a request that waits for the CMS (a page to render) against its client's budget, shared with the
   * proxy's uncached reads (CONTENT_MISSES_PER_MINUTE); over it, throws 429 Too_Many_Requests with Retry-After.
   */
  countUncached(request: FastifyRequest): Promise<void>;
  /** Server-rendered pages, invalidated with the content by the CMS webhook. */
  pages: ResponseCache;
}

const EMPTY_LIST = Buffer.from('{"data":[]');
const CONTENT_CSP_FOR_UPLOADS = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/bmp',
]);

declare module 'fastify' {
  interface FastifyInstance {
    /** The content proxy's caches (tests and the webhook use them). */
    contentCache: { content: ResponseCache; uploads: ResponseCache; pages: ResponseCache };
    /** What other parts of the server may use of the content proxy: in-process reads and the rendered-page cache. */
    contentService: ContentService;
  }
}

function rawQueryOf(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}

/**
 * Says once per outage that the CMS gives no content (a warning, e.g. while it is still starting), and once that
 * it answers again; the failed requests in between log at debug only.
 */
function outageLog(log: FastifyInstance['log']) {
  let since: number | undefined;
  return {
    failed(err: unknown) {
      const reason = err instanceof Error ? err.message : 'unknown failure';
      if (since !== undefined) return log.debug({ reason }, 'content unavailable');
      since = Date.now();
      log.warn(
        { reason },
        'Content is unavailable: the CMS gives no answer (it may still be starting). Said once until it answers again.',
      );
    },
    answered() {
      if (since === undefined) return;
      log.info({ unavailableMs: Date.now() - since }, 'The CMS answers again: content is served.');
      since = undefined;
    },
  };
}

/**
 * The CMS proxy (docs/requirements/api.md#content-proxy): `GET /api/content/<type>[/<documentId>]` with the
 * server-held token, a per-instance cache (SWR, single-flight, ETag), the CMS webhook that invalidates it, and
 * `GET /uploads/*` for images referenced by content. See docs/decisions/0007-content-proxy.md.
 */
export const contentPlugin = fp(async (app: FastifyInstance, options: ContentPluginOptions) => {
  const { config } = options;
  const limits = { ...defaultContentLimits, uncachedPerMinute: config.cms.missesPerMinute, ...options.limits };
  const agents = createAgents();
  const client = new CmsClient({
    baseUrl: config.cms.url,
    timeoutMs: config.cms.timeoutMs,
    maxContentBytes: limits.maxContentBytes,
    maxUploadBytes: limits.maxUploadBytes,
    tokens: new CmsTokenSource(config.cms.token, tokenFile(config.dataDir)),
    agents,
  });
  const webhookSecret = new WebhookSecret(config.cms.webhookSecret, webhookSecretFile(config.dataDir));
  if (config.isProduction && (!config.cms.token || !config.cms.webhookSecret)) {
    // Several instances behind a load balancer do not share a disk: the handover files suit one machine only.
    app.log.warn(
      'CMS_TOKEN or CMS_WEBHOOK_SECRET is unset: the CMS token and webhook secret come from files in DATA_DIR, which only works when the CMS and this instance share that folder',
    );
  }
  const previewKey = webhookSecret.previewKey();
  const outage = outageLog(app.log);
  const onBackgroundError = (err: unknown) => outage.failed(err);
  const common = {
    ttlMs: config.cms.cacheTtlMs,
    retryAfterFailureMs: limits.retryAfterFailureMs,
    breakerThreshold: limits.breakerThreshold,
    onBackgroundError,
  };
  const content = new ResponseCache({
    ...common,
    maxEntries: limits.contentCacheEntries,
    maxBytes: limits.contentCacheBytes,
    // A query that matched nothing (a made-up topic slug): Strapi answers an empty list.
    isMiss: (answer) => answer.body.subarray(0, EMPTY_LIST.length).equals(EMPTY_LIST),
  });
  const uploads = new ResponseCache({
    ...common,
    maxEntries: limits.uploadCacheEntries,
    maxBytes: limits.uploadCacheBytes,
  });
  // Server-rendered pages (docs/decisions/0018-server-rendering.md) are built from content: same lifetime, same webhook.
  const pages = new ResponseCache({
    ...common,
    maxEntries: limits.contentCacheEntries,
    maxBytes: limits.contentCacheBytes,
    // Unknown pages (any made-up /topics/… renders one) never push a real page out (docs/decisions/0032).
    isMiss: (answer) => answer.status === 404,
  });
  /**
   * Any failure to get content from the CMS answers 502 Content_Unavailable, never a 500. A 5xx on one query (the
   * breaker closed) is that query's problem, logged per request at info; a request not sent because the CMS or the
   * query failed moments ago was reported then; anything else is the CMS being unavailable, said once per outage.
   */
  function unavailable(request: { log: FastifyBaseLogger }, err: unknown): PortalError {
    if (!(err instanceof UpstreamUnavailable)) request.log.error({ err }, 'unexpected failure in the content proxy');
    else if (err.failure === 'resting') request.log.debug({ reason: err.message }, 'content unavailable');
    else if (err.failure === 'server-error' && !content.breakerOpen)
      request.log.info({ reason: err.message }, 'the CMS failed this query');
    else outage.failed(err);
    return new PortalError(502, 'Content_Unavailable');
  }
  /** A loader that also tells the outage log when the CMS answered. */
  const answering =
    <T>(load: () => Promise<T>) =>
    async () => {
      const result = await load();
      outage.answered();
      return result;
    };
  app.decorate('contentCache', { content, uploads, pages });
  // Counted in the metrics (platform/metrics.ts) when the app has them; a test may register this plugin alone.
  if (app.hasDecorator('metrics')) {
    app.metrics.trackCache('content', content.counts);
    app.metrics.trackCache('uploads', uploads.counts);
    app.metrics.trackCache('pages', pages.counts);
  }
  const invalidateLocally = () => {
    content.invalidateAll();
    uploads.invalidateAll();
    pages.invalidateAll();
  };
  const broadcast = options.database
    ? await startInvalidationBroadcast(options.database, invalidateLocally, app.log)
    : undefined;

  /**
   * Published content as `GET <url>` under /api/content would answer it (status and JSON body), for the server's
   * own page rendering: the same allow-list, cache and CMS client, without an HTTP call to itself.
   */
  async function readPublished(url: string, log: FastifyBaseLogger): Promise<{ status: number; body: unknown }> {
    const failure = (status: number, code: string) => ({ status, body: { errorMessage: code } });
    const [path = '', query = ''] = url.split('?', 2);
    if (!path.startsWith(`${CONTENT_PATH}/`)) return failure(404, 'Not_Found');
    let parsed: ContentRequest | undefined;
    try {
      parsed = parseContentRequest(decodeURIComponent(path.slice(CONTENT_PATH.length + 1)), query);
    } catch (err) {
      if (err instanceof QueryRejected) return failure(400, 'Validation_Failed');
      throw err;
    }
    if (!parsed) return failure(404, 'Not_Found');
    const { cacheKey, path: cmsPath, pairs } = parsed;
    let lookup: CacheLookup;
    try {
      lookup = await content.get(
        cacheKey,
        answering(() => client.content(cmsPath, pairs, log)),
      );
    } catch (err) {
      const error = unavailable({ log }, err);
      return failure(error.status, error.code);
    }
    if (lookup.kind === 'not-found') return failure(404, 'Not_Found');
    if (lookup.kind === 'bad-request') return failure(400, 'Validation_Failed');
    return { status: 200, body: JSON.parse(lookup.answer.body.toString('utf8')) as unknown };
  }
  /** Set when the routes' scope (which owns the rate limiter) is registered, below. */
  let countUncached: (request: FastifyRequest) => Promise<void> = async () => {};
  app.decorate('contentService', { readPublished, pages, countUncached: (request) => countUncached(request) });
  app.addHook('onClose', async () => {
    agents.http.destroy();
    agents.https.destroy();
    await broadcast?.close().catch(() => {});
  });

  // The API reference of the content read (docs only: the path and query are checked by the allow-list, by hand).
  const contentReadSchema = {
    summary: 'Published CMS content through the allow-list and cache (Strapi 5 REST paths and query)',
    description:
      "The path after /api/content is a Strapi REST path on the allow-list (docs/decisions/0007-content-proxy.md); the query is Strapi's (filters, populate, fields, sort, pagination, locale), allow-listed too. Answers carry a strong ETag; `If-None-Match` gets 304.",
  };
  const contentReadConfig = {
    answers: {
      200: { description: "The CMS's JSON answer, as the CMS sent it.", contentType: 'application/json' },
      304: { description: 'Not modified (If-None-Match matched the ETag).' },
    },
    errors: {
      400: ['Validation_Failed'],
      404: ['Not_Found'],
      429: ['Too_Many_Requests'],
      502: ['Content_Unavailable'],
    },
  } satisfies FastifyContextConfig;
  // The routes live in their own scope with their own rate limiter (so another part of the app can register
  // @fastify/rate-limit too). Limits are per client address, in memory (per instance).
  await app.register(async (scope) => {
    await scope.register(rateLimit, { global: false, keyGenerator: clientKey });
    const uncachedLimit = scope.createRateLimit({ max: limits.uncachedPerMinute, timeWindow: 60_000 });
    /**
     * Requests that wait for the CMS count against the client's budget (page renders too, through contentService);
     * cached answers (even stale) never do.
     */
    countUncached = async (request: FastifyRequest) => {
      const limit = await uncachedLimit(request);
      if (!limit.isAllowed && limit.isExceeded)
        throw new PortalError(429, 'Too_Many_Requests', undefined, { 'retry-after': String(limit.ttlInSeconds) });
    };
    // Allowed requests, parsed once per distinct URL: the SPA asks for the same few URLs over and over.
    const parsedRequests = new LRUCache<string, ContentRequest>({ max: limits.parsedRequestEntries });
    function parseRequest(request: FastifyRequest): ContentRequest {
      const known = parsedRequests.get(request.url);
      if (known) return known;
      let parsed;
      try {
        parsed = parseContentRequest((request.params as { '*': string })['*'], rawQueryOf(request.url));
      } catch (err) {
        if (err instanceof QueryRejected) {
          request.log.info({ reason: err.reason }, 'content query rejected');
          throw new PortalError(400, 'Validation_Failed');
        }
        throw err;
      }
      if (!parsed) throw new PortalError(404, 'Not_Found');
      parsedRequests.set(request.url, parsed);
      return parsed;
    }

    /** Drafts (Strapi 5 names them status=draft), straight from the CMS and never cached. */
    async function answerDraft(request: FastifyRequest, reply: FastifyReply, { path, pairs }: ContentRequest) {
      await countUncached(request);
      let result;
      try {
        result = await answering(() => client.content(path, [...pairs, ['status', 'draft']], request.log))();
      } catch (err) {
        throw unavailable(request, err);
      }
      if (result.kind === 'not-found') throw new PortalError(404, 'Not_Found');
      if (result.kind === 'bad-request') throw new PortalError(400, 'Validation_Failed');
      return reply.header('cache-control', 'no-store').header('content-type', result.contentType).send(result.body);
    }

    /** Published content through the cache: stale-while-revalidate, single-flight misses, last good copy. */
    async function answerPublished(request: FastifyRequest, reply: FastifyReply, parsed: ContentRequest) {
      const { path, pairs } = parsed;
      // A stale copy is served at once (one background refresh per key whoever asks): only waits count.
      if (!content.has(parsed.cacheKey)) await countUncached(request);
      let lookup: CacheLookup;
      try {
        lookup = await content.get(
          parsed.cacheKey,
          answering(() => client.content(path, pairs, request.log)),
        );
      } catch (err) {
        throw unavailable(request, err);
      }
      if (lookup.kind === 'not-found') throw new PortalError(404, 'Not_Found');
      if (lookup.kind === 'bad-request') throw new PortalError(400, 'Validation_Failed');
      return sendCachedAnswer(request, reply, lookup.answer, { stale: lookup.stale, cacheControl: 'no-cache' });
    }

    // Public, cached reads: no per-request access lines (platform/logger.ts isQuietRequest); failures are logged.
    // A fresh cached answer is sent synchronously, without a promise; the rest asks the cache or the CMS.
    // Answers leave in the compressed form stored with the cache entry: @fastify/compress stays out (`compress: false`).
    scope.get(
      '/api/content/*',
      { compress: false, schema: contentReadSchema, config: contentReadConfig },
      (request, reply) => {
        const parsed = parseRequest(request);
        // publicationState=preview is ignored here: drafts leave only through the signed preview route below.
        const answer = content.fresh(parsed.cacheKey);
        if (answer) {
          sendCachedAnswer(request, reply, answer, { cacheControl: 'no-cache' });
          // Not `return reply`: Fastify would try to send it a second time.
          return;
        }
        return answerPublished(request, reply, parsed);
      },
    );

    // One draft, to the holder of the link the CMS signed for it (preview.ts): never cached, never server-rendered.
    scope.get(
      `${PREVIEW_API_PREFIX}:type/:documentId`,
      {
        schema: {
          summary: "One draft for the editors' preview (`?expires=…&signature=…`, signed by the CMS for this document)",
        },
        config: {
          answers: { 200: { description: 'The draft as the CMS sent it.', contentType: 'application/json' } },
          errors: { 404: ['Not_Found'], 429: ['Too_Many_Requests'], 502: ['Content_Unavailable'] },
        },
      },
      async (request, reply) => {
        const { type, documentId } = request.params as { type: string; documentId: string };
        const { expires, signature } = request.query as Record<string, unknown>;
        const grant = verifyPreview(previewKey, { type, documentId, expires, signature });
        // A missing, wrong, expired or other document's signature: nothing of the draft, not even that it exists.
        const path = grant && parseContentPath(`${grant.type}/${grant.documentId}`);
        if (!path) throw new PortalError(404, 'Not_Found');
        return answerDraft(request, reply, {
          path,
          pairs: [['populate', '*']],
          preview: true,
          cacheKey: '',
        });
      },
    );

    // Only GET/HEAD reach the CMS; other methods on content paths are refused outright.
    scope.route({
      method: ['POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/api/content/*',
      schema: { summary: 'Content is read-only: every other method is refused' },
      config: {
        audit: { exempt: 'refuses every call (405): content is read-only' },
        errors: { 405: ['Method_Not_Allowed'] },
      },
      handler: async () => {
        throw new PortalError(405, 'Method_Not_Allowed', undefined, { allow: 'GET, HEAD' });
      },
    });

    scope.post(
      '/api/content/webhook',
      {
        // Server-to-server: authenticated by the shared secret instead of the browser CSRF check.
        config: {
          audit: { exempt: 'the CMS (not a person) tells the cache to drop content; authenticated by its secret' },
          csrf: false,
          rateLimit: { max: limits.webhookPerMinute, timeWindow: 60_000 },
          answers: { 204: { description: 'Every instance dropped its cached content.' } },
          errors: { 401: ['Unauthorized'] },
        },
        schema: { summary: "The CMS's publish webhook (server to server, authenticated by X-Webhook-Secret)" },
        bodyLimit: limits.webhookBodyBytes,
        // Checked before the body is read, and the cache is invalidated here so an oversized or odd body
        // from an authenticated CMS still takes effect.
        onRequest: async (request) => {
          if (!webhookSecret.verify(request.headers[WEBHOOK_SECRET_HEADER.toLowerCase()])) {
            request.log.warn('CMS webhook with a wrong or missing secret');
            throw new PortalError(401, 'Unauthorized');
          }
          invalidateLocally();
          // The CMS calls one instance; the others hear it through the database (docs/decisions/0019).
          await broadcast?.publish().catch((err: unknown) => {
            request.log.error(
              { err },
              'CMS webhook: could not tell the other instances; they serve their copies until CONTENT_CACHE_TTL_MS passes',
            );
          });
        },
      },
      async (request, reply) => {
        const body = (request.body ?? {}) as { event?: unknown; model?: unknown; uid?: unknown };
        const short = (v: unknown) => (typeof v === 'string' ? v.slice(0, 100) : undefined);
        request.log.info(
          { event: short(body.event), model: short(body.model) ?? short(body.uid) },
          'CMS webhook: content cache invalidated',
        );
        return reply.code(204).send();
      },
    );

    scope.get('/uploads/*', { compress: false }, async (request, reply) => {
      const path = parseUploadPath((request.params as { '*': string })['*']);
      if (!path) throw new PortalError(404, 'Not_Found');
      if (!uploads.has(path)) await countUncached(request);
      let lookup: CacheLookup;
      try {
        lookup = await uploads.get(
          path,
          answering(() => client.upload(path, request.log)),
        );
      } catch (err) {
        throw unavailable(request, err);
      }
      if (lookup.kind !== 'ok') throw new PortalError(404, 'Not_Found');
      // An uploaded SVG or HTML file must not run script on our origin: images keep their type, anything else is
      // a download, and the answer carries its own locked-down CSP.
      const type = lookup.answer.contentType.split(';')[0]!.trim().toLowerCase();
      reply.header('content-security-policy', CONTENT_CSP_FOR_UPLOADS);
      if (!IMAGE_TYPES.has(type)) reply.header('content-disposition', 'attachment');
      // An SVG leaves compressed like other text; other images were stored as they are.
      const contentType = IMAGE_TYPES.has(type) ? type : 'application/octet-stream';
      return sendCachedAnswer(request, reply, lookup.answer, {
        stale: lookup.stale,
        cacheControl: 'public, max-age=86400',
        contentType,
      });
    });
  });
});
