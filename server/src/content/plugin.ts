import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { LRUCache } from 'lru-cache';
import { PortalError } from '../platform/portal-error';
import { parseContentRequest, parseUploadPath, QueryRejected, type ContentRequest } from './allow-list';
import { etagMatches, ResponseCache, UpstreamUnavailable, type CacheLookup, type CachedAnswer } from './cache';
import { CmsClient } from './cms-client';
import { CmsTokenSource, tokenFile, WebhookSecret, webhookSecretFile } from './handover';
import { createAgents } from './upstream';

export interface ContentPluginOptions {
  config: Config;
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
  // Strapi's webhook body carries the whole entry (a topic's markdown body); the secret is checked first.
  webhookBodyBytes: 2 * 1024 * 1024,
  parsedRequestEntries: 1000,
};

const CONTENT_CSP_FOR_UPLOADS = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/bmp']);

declare module 'fastify' {
  interface FastifyInstance {
    /** The content proxy's caches (tests and the webhook use them). */
    contentCache: { content: ResponseCache; uploads: ResponseCache };
  }
}

function rawQueryOf(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}

/** Any failure to get content from the CMS answers 502 Content_Unavailable, never a 500. */
function unavailable(request: FastifyRequest, err: unknown): PortalError {
  if (!(err instanceof UpstreamUnavailable)) request.log.error({ err }, 'unexpected failure in the content proxy');
  return new PortalError(502, 'Content_Unavailable');
}

/** Replays a cached answer: 304 when the browser's copy is current, X-Content-Stale when it is past its TTL. */
function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer, stale: boolean, cacheControl: string) {
  reply.header('etag', answer.etag).header('cache-control', cacheControl);
  if (stale) reply.header('x-content-stale', '1');
  if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.header('content-type', answer.contentType).send(answer.body);
}

/**
 * The CMS proxy (docs/requirements/api.md#content-proxy): `GET /api/content/<type>[/<documentId>]` with the
 * server-held token, a per-instance cache (SWR, single-flight, ETag), the CMS webhook that invalidates it, and
 * `GET /uploads/*` for images referenced by content. See docs/decisions/0007-content-proxy.md.
 */
export const contentPlugin = fp(async (app: FastifyInstance, options: ContentPluginOptions) => {
  const { config } = options;
  const limits = { ...defaultContentLimits, ...options.limits };
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
    app.log.warn('CMS_TOKEN or CMS_WEBHOOK_SECRET is unset: the CMS token and webhook secret come from files in DATA_DIR, which only works when the CMS and this instance share that folder');
  }
  const onBackgroundError = (err: unknown) => app.log.debug({ reason: err instanceof Error ? err.message : 'unknown' }, 'background content refresh failed');
  const content = new ResponseCache({
    ttlMs: config.cms.cacheTtlMs,
    maxEntries: limits.contentCacheEntries,
    maxBytes: limits.contentCacheBytes,
    retryAfterFailureMs: limits.retryAfterFailureMs,
    onBackgroundError,
  });
  const uploads = new ResponseCache({
    ttlMs: config.cms.cacheTtlMs,
    maxEntries: limits.uploadCacheEntries,
    maxBytes: limits.uploadCacheBytes,
    retryAfterFailureMs: limits.retryAfterFailureMs,
    onBackgroundError,
  });
  app.decorate('contentCache', { content, uploads });
  app.addHook('onClose', async () => {
    agents.http.destroy();
    agents.https.destroy();
  });

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
    let result;
    try {
      result = await client.content(path, [...pairs, ['status', 'draft']], request.log);
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
    let lookup: CacheLookup;
    try {
      lookup = await content.get(parsed.cacheKey, () => client.content(path, pairs, request.log));
    } catch (err) {
      throw unavailable(request, err);
    }
    if (lookup.kind === 'not-found') throw new PortalError(404, 'Not_Found');
    if (lookup.kind === 'bad-request') throw new PortalError(400, 'Validation_Failed');
    return sendAnswer(request, reply, lookup.answer, lookup.stale, 'no-cache');
  }

  // Public, cached reads: no per-request access lines (platform/logger.ts isQuietRequest); failures are logged.
  // A fresh cached answer is sent synchronously, without a promise; the rest asks the cache or the CMS.
  app.get('/api/content/*', (request, reply) => {
    const parsed = parseRequest(request);
    // Drafts leave the server only on a preview instance; elsewhere publicationState=preview is ignored.
    if (parsed.preview && config.cms.preview) return answerDraft(request, reply, parsed);
    const answer = content.fresh(parsed.cacheKey);
    if (answer) {
      sendAnswer(request, reply, answer, false, 'no-cache');
      // Not `return reply`: Fastify would try to send it a second time.
      return;
    }
    return answerPublished(request, reply, parsed);
  });

  // Only GET/HEAD reach the CMS; other methods on content paths are refused outright.
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/api/content/*',
    handler: async () => {
      throw new PortalError(405, 'Method_Not_Allowed', undefined, { allow: 'GET, HEAD' });
    },
  });

  app.post(
    '/api/content/webhook',
    {
      // Server-to-server: authenticated by the shared secret instead of the browser CSRF check.
      config: { csrf: false },
      bodyLimit: limits.webhookBodyBytes,
      // Checked before the body is read, and the cache is invalidated here so an oversized or odd body
      // from an authenticated CMS still takes effect.
      onRequest: async (request) => {
        if (!webhookSecret.verify(request.headers['x-webhook-secret'])) {
          request.log.warn('CMS webhook with a wrong or missing secret');
          throw new PortalError(401, 'Unauthorized');
        }
        content.invalidateAll();
        uploads.invalidateAll();
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as { event?: unknown; model?: unknown; uid?: unknown };
      const short = (v: unknown) => (typeof v === 'string' ? v.slice(0, 100) : undefined);
      request.log.info({ event: short(body.event), model: short(body.model) ?? short(body.uid) }, 'CMS webhook: content cache invalidated');
      return reply.code(204).send();
    },
  );

  app.get('/uploads/*', async (request, reply) => {
    const path = parseUploadPath((request.params as { '*': string })['*']);
    if (!path) throw new PortalError(404, 'Not_Found');
    let lookup: CacheLookup;
    try {
      lookup = await uploads.get(path, () => client.upload(path, request.log));
    } catch (err) {
      throw unavailable(request, err);
    }
    if (lookup.kind !== 'ok') throw new PortalError(404, 'Not_Found');
    // An uploaded SVG or HTML file must not run script on our origin: images keep their type, anything else is
    // a download, and the answer carries its own locked-down CSP.
    const type = lookup.answer.contentType.split(';')[0]!.trim().toLowerCase();
    reply.header('content-security-policy', CONTENT_CSP_FOR_UPLOADS);
    if (!IMAGE_TYPES.has(type)) reply.header('content-disposition', 'attachment');
    reply.header('content-type', IMAGE_TYPES.has(type) ? type : 'application/octet-stream');
    reply.header('etag', lookup.answer.etag).header('cache-control', 'public, max-age=86400');
    if (lookup.stale) reply.header('x-content-stale', '1');
    if (etagMatches(request.headers['if-none-match'], lookup.answer.etag)) return reply.code(304).send();
    return reply.send(lookup.answer.body);
  });
});
