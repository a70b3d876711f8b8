import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** One upstream answer as the proxy replays it. */
export interface CachedAnswer {
  body: Buffer;
  contentType: string;
  /** Strong validator over the body bytes, quoted (RFC 9110 §8.8.3). */
  etag: string;
  storedAt: number;
  /** Cache generation the answer was fetched in; a webhook starts a new generation. */
  generation: number;
}

/** What a loader (one upstream request) found. */
export type LoadResult = { kind: 'ok'; body: Buffer; contentType: string } | { kind: 'not-found' } | { kind: 'bad-request' };

/** The upstream could not answer (network error, time-out, 5xx, unusable answer) and nothing was cached. */
export class UpstreamUnavailable extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'UpstreamUnavailable';
  }
}

type Resolved = { kind: 'ok'; answer: CachedAnswer } | { kind: 'not-found' } | { kind: 'bad-request' };

export type CacheLookup =
  | { kind: 'ok'; answer: CachedAnswer; /** served past its TTL, or as the last good copy while the upstream fails */ stale: boolean }
  | { kind: 'not-found' }
  | { kind: 'bad-request' };

export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
  /** After an upstream failure, serve cached copies (and fail misses) without asking again for this long. */
  retryAfterFailureMs: number;
  now?: () => number;
  /** Called when a background refresh fails (the request that triggered it has already been answered). */
  onBackgroundError?: (err: unknown) => void;
}

export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if (tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}

/**
 * Per-instance cache of upstream answers (docs/requirements/api.md#content-proxy), bounded by entries and bytes (least recently used go
 * first). Behaviour, in order:
 * - fresh hit → served from memory;
 * - past its TTL → served at once, refreshed in the background (stale-while-revalidate);
 * - invalidated by the CMS webhook (`invalidateAll`) → the next request waits for the upstream, so an edit is
 *   visible at once, but the old copy still serves as the last good copy if the upstream fails;
 * - miss → one upstream request however many callers wait for it (single-flight);
 * - upstream unavailable → the last good copy marked stale, else UpstreamUnavailable.
 * After a failure the upstream is left alone for `retryAfterFailureMs` (a small circuit breaker, docs/decisions/0007-content-proxy.md).
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer>;
  private readonly inflight = new Map<string, Promise<Resolved>>();
  private generation = 0;
  private failedAt: number | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ResponseCacheOptions) {
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache<string, CachedAnswer>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (answer, key) => answer.body.length + key.length + 200,
    });
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** The CMS changed something: every cached answer must be fetched again before it is served as current. */
  invalidateAll(): void {
    this.generation++;
  }

  /** Forgets everything, last good copies and the last upstream failure included. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.failedAt = undefined;
  }

  private upstreamResting(): boolean {
    return this.failedAt !== undefined && this.now() - this.failedAt < this.options.retryAfterFailureMs;
  }

  /**
   * The cached answer when it is current (this generation, within its TTL), else undefined. Synchronous, so a
   * route can answer a fresh hit without a promise; anything else goes through `get`.
   */
  fresh(key: string): CachedAnswer | undefined {
    const cached = this.entries.get(key);
    return cached && cached.generation === this.generation && this.withinTtl(cached) ? cached : undefined;
  }

  private withinTtl(answer: CachedAnswer): boolean {
    return this.now() - answer.storedAt < this.options.ttlMs;
  }

  async get(key: string, load: () => Promise<LoadResult>): Promise<CacheLookup> {
    const cached = this.entries.get(key);
    if (cached && cached.generation === this.generation) {
      if (this.withinTtl(cached)) return { kind: 'ok', answer: cached, stale: false };
      if (!this.upstreamResting()) {
        this.refresh(key, load).catch((err: unknown) => this.options.onBackgroundError?.(err));
      }
      return { kind: 'ok', answer: cached, stale: true };
    }
    if (this.upstreamResting()) {
      if (cached) return { kind: 'ok', answer: cached, stale: true };
      throw new UpstreamUnavailable('the CMS failed moments ago; not asking again yet');
    }
    try {
      const result = await this.refresh(key, load);
      return result.kind === 'ok' ? { kind: 'ok', answer: result.answer, stale: false } : result;
    } catch (err) {
      if (cached) return { kind: 'ok', answer: cached, stale: true };
      throw err instanceof UpstreamUnavailable ? err : new UpstreamUnavailable('upstream request failed', { cause: err });
    }
  }

  private toAnswer(result: { body: Buffer; contentType: string }, generation: number): CachedAnswer {
    return { body: result.body, contentType: result.contentType, etag: strongEtag(result.body), storedAt: this.now(), generation };
  }

  /** One upstream request per key and generation; concurrent callers share it. */
  private refresh(key: string, load: () => Promise<LoadResult>): Promise<Resolved> {
    const generation = this.generation;
    const flightKey = `${generation}\u0000${key}`;
    const running = this.inflight.get(flightKey);
    if (running) return running;
    const flight = (async (): Promise<Resolved> => {
      try {
        const result = await load();
        this.failedAt = undefined;
        if (result.kind !== 'ok') {
          // Unpublished or deleted: do not keep serving the old copy.
          if (result.kind === 'not-found' && generation === this.generation) this.entries.delete(key);
          return result;
        }
        const answer = this.toAnswer(result, generation);
        // An answer fetched before a newer webhook never replaces one fetched after it. (An answer larger
        // than the cache allows is not kept by the LRU but is still served to the callers waiting for it.)
        const existing = this.entries.peek(key);
        if (!existing || existing.generation <= generation) this.entries.set(key, answer);
        return { kind: 'ok', answer };
      } catch (err) {
        this.failedAt = this.now();
        throw err;
      } finally {
        this.inflight.delete(flightKey);
      }
    })();
    this.inflight.set(flightKey, flight);
    return flight;
  }
}
