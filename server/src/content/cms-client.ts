import type { FastifyBaseLogger } from 'fastify';
import { encodeQuery, type ContentPath } from './allow-list';
import { UpstreamUnavailable, type LoadResult } from './cache';
import type { CmsTokenSource } from './handover';
import { upstreamGet, UpstreamError, type Agents, type UpstreamResponse } from './upstream';

export interface CmsClientOptions {
  baseUrl: string;
  timeoutMs: number;
  maxContentBytes: number;
  maxUploadBytes: number;
  tokens: CmsTokenSource;
  agents: Agents;
}

const JSON_TYPE = /^application\/(vnd\.api\+)?json\b/i;

/** The only upstream calls the portal makes to the CMS: content reads with the server-held token, and uploads. */
export class CmsClient {
  constructor(private readonly options: CmsClientOptions) {}

  private failureOf(err: unknown) {
    if (err instanceof UpstreamError)
      return err.reason === 'timeout' ? 'timeout' : err.reason === 'network' ? 'connection' : 'other';
    return 'other';
  }

  private describe(err: unknown): string {
    return err instanceof UpstreamError ? err.message : err instanceof Error ? err.message : 'unknown failure';
  }

  /** Reads `/api/<type>[/<documentId>]` in Strapi's v4 response shape. */
  async content(
    path: ContentPath,
    pairs: ReadonlyArray<readonly [string, string]>,
    log: FastifyBaseLogger,
  ): Promise<LoadResult> {
    const query = encodeQuery(pairs);
    const url = new URL(
      `${this.options.baseUrl}/api/${path.type}${path.documentId ? `/${path.documentId}` : ''}${query ? `?${query}` : ''}`,
    );
    const where = { cms: { type: path.type, documentId: path.documentId } };
    const { tokens } = this.options;

    let token = await tokens.current();
    if (!token) {
      log.debug(where, 'CMS request not made: no token yet');
      throw new UpstreamUnavailable('the CMS API token is not available yet (CMS_TOKEN unset and no token file)');
    }
    let res = await this.send(url, token, log, where);
    if ((res.status === 401 || res.status === 403) && tokens.rereadable) {
      // The CMS may have regenerated its token and rewritten the handover file: read it again, retry once.
      const fresh = await tokens.reload();
      if (fresh && fresh !== token) {
        token = fresh;
        res = await this.send(url, token, log, where);
      }
    }
    return this.classify(res, log, where, JSON_TYPE);
  }

  /** Reads a file under the CMS's `/uploads/` (public files: no token is sent). */
  async upload(path: string, log: FastifyBaseLogger): Promise<LoadResult> {
    const url = new URL(`${this.options.baseUrl}/uploads/${path}`);
    const where = { cms: { upload: path } };
    let res: UpstreamResponse;
    try {
      res = await upstreamGet(
        url,
        { accept: 'image/*,*/*;q=0.5' },
        { timeoutMs: this.options.timeoutMs, maxBytes: this.options.maxUploadBytes, agents: this.options.agents },
      );
    } catch (err) {
      log.debug({ ...where, reason: this.describe(err) }, 'CMS upload request failed');
      throw new UpstreamUnavailable(this.describe(err), { cause: err, failure: this.failureOf(err) });
    }
    return this.classify(res, log, where, /./);
  }

  private async send(url: URL, token: string, log: FastifyBaseLogger, where: object): Promise<UpstreamResponse> {
    try {
      return await upstreamGet(
        url,
        { accept: 'application/json', authorization: `Bearer ${token}`, 'strapi-response-format': 'v4' },
        { timeoutMs: this.options.timeoutMs, maxBytes: this.options.maxContentBytes, agents: this.options.agents },
      );
    } catch (err) {
      // Only our own message and the error code are logged: never the request options (they carry the token).
      // Per request at debug only: the plugin says once per outage that the CMS is unavailable.
      log.debug({ ...where, reason: this.describe(err) }, 'CMS request failed');
      throw new UpstreamUnavailable(this.describe(err), { cause: err, failure: this.failureOf(err) });
    }
  }

  private classify(res: UpstreamResponse, log: FastifyBaseLogger, where: object, acceptable: RegExp): LoadResult {
    if (res.status === 200) {
      if (!acceptable.test(res.contentType)) {
        log.debug(
          { ...where, status: res.status, contentType: res.contentType },
          'CMS answered an unexpected content type',
        );
        throw new UpstreamUnavailable(`the CMS answered an unexpected content type (${res.contentType.slice(0, 60)})`, {
          failure: 'server-error',
        });
      }
      return { kind: 'ok', body: res.body, contentType: res.contentType };
    }
    if (res.status === 404) return { kind: 'not-found' };
    if (res.status === 401 || res.status === 403) {
      // The portal's own token, not the caller: a configuration problem, never the client's error.
      throw new UpstreamUnavailable(`the CMS refused the portal's API token (${res.status})`);
    }
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
      // The CMS refused this query: the caller's error (answered 400), never a CMS outage.
      log.info({ ...where, status: res.status }, 'CMS rejected the query');
      return { kind: 'bad-request' };
    }
    log.debug({ ...where, status: res.status }, 'CMS request failed');
    throw new UpstreamUnavailable(`the CMS answered ${res.status}`, { failure: 'server-error' });
  }
}
