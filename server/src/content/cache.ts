import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { compressAnswer, type EncodedForms } from './encodings';

/** One upstream answer as the proxy replays it. */
export interface CachedAnswer {
  body: Buffer;
  contentType: string;
  /** Strong validator over the body bytes, quoted (RFC 9110 §8.8.3). */
  etag: string;
  /**
   * The body compressed once when stored (brotli and gzip, each with its own strong ETag), so a hit never
   * compresses again; empty for small or binary answers, which are sent as they are. See encodings.ts.
   */
  encoded: EncodedForms;
  storedAt: number;
  /** The HTTP status to answer with when not 200 (a rendered not-found page is stored and answered 404). */
  status?: number;
  /** The Location header of a redirect (a rendered page that moved: status 301). */
  location?: string;
  /** Cache generation the answer was fetched in; a webhook starts a new generation. */
  generation: number;
}

/** What a loader (one upstream request) found. */
export type LoadResult =
  | { kind: 'ok'; body: Buffer; contentType: string; status?: number; location?: string }
  | { kind: 'not-found' }
  | { kind: 'bad-request' };

/**
 * Why the upstream gave no usable answer: the first three say something about the CMS's health (see
 * ResponseCache); `other` (no token yet, token refused, answer too large) does not; `resting` means the upstream
 * was not asked because it (or this query) failed moments ago.
 */
export type UpstreamFailure = 'connection' | 'timeout' | 'server-error' | 'other' | 'resting';

/** The upstream could not answer (network error, time-out, 5xx, unusable answer) and nothing was cached. */
export class UpstreamUnavailable extends Error {
  readonly failure: UpstreamFailure;
  constructor(reason: string, options?: { cause?: unknown; failure?: UpstreamFailure }) {
    super(reason, options);
    this.name = 'UpstreamUnavailable';
    this.failure = options?.failure ?? 'other';
  }
}

type Resolved = { kind: 'ok'; answer: CachedAnswer } | { kind: 'not-found' } | { kind: 'bad-request' };

export type CacheLookup =
  | {
      kind: 'ok';
      answer: CachedAnswer;
      /** served past its TTL, or as the last good copy while the upstream fails */ stale: boolean;
    }
  | { kind: 'not-found' }
  | { kind: 'bad-request' };

export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
  /**
   * After a query fails, that query is not asked again for this long; when the CMS looks unhealthy (see
   * `breakerThreshold`), no query is.
   */
  retryAfterFailureMs: number;
  /** Consecutive health failures (see ResponseCache) that pause every upstream call; default 3. */
  breakerThreshold?: number;
  /** Told when the circuit breaker opens (the CMS looks down) and when an answer arrives again. */
  onHealthChange?: (healthy: boolean, err?: unknown) => void;
  now?: () => number;
  /** Called when a background refresh fails (the request that triggered it has already been answered). */
  onBackgroundError?: (err: unknown) => void;
  /**
   * Answers that say "nothing here" (a rendered not-found page, an empty list): anyone can ask for endless such
   * URLs, so they are kept apart, in a tenth of the room, and never push a real answer out (docs/decisions/0032).
   */
  isMiss?: (answer: CachedAnswer) => boolean;
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
 *
 * Failures are remembered per key: a query that failed (4xx or unavailable) is not asked again for
 * `retryAfterFailureMs`, and meanwhile answers the same (a 4xx stays a 4xx). One client's bad query therefore
 * never pauses anyone else's. A circuit breaker keyed by the CMS's health, not by a query, pauses every upstream
 * call for `retryAfterFailureMs` after `breakerThreshold` consecutive health failures: connection errors, and
 * time-outs or 5xx on queries that succeeded before (a query that never worked says nothing about the CMS).
 * Any answer from the CMS (even a 4xx or 404) resets the count.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer>;
  /** Answers `isMiss` picks out, in their own smaller LRU. */
  private readonly misses: LRUCache<string, CachedAnswer>;
  private readonly inflight = new Map<string, Promise<Resolved>>();
  private generation = 0;
  /** Keys whose last upstream request failed, with when and how (bounded like the entries). */
  private readonly failedKeys: LRUCache<string, { at: number; result: 'bad-request' | 'unavailable' }>;
  /** Keys the upstream answered 200 for at least once. */
  private readonly knownGood: LRUCache<string, true>;
  private healthFailures = 0;
  /** Reads answered fresh, stale, or after waiting for the upstream (metrics read these; plain numbers, cheap). */
  readonly counts = { hits: 0, stale: 0, misses: 0 };
  private openedAt: number | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ResponseCacheOptions) {
    this.now = options.now ?? Date.now;
    const sizeCalculation = (answer: CachedAnswer, key: string) =>
      answer.body.length +
      (answer.encoded.br?.body.length ?? 0) +
      (answer.encoded.gzip?.body.length ?? 0) +
      key.length +
      300;
    this.entries = new LRUCache<string, CachedAnswer>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation,
    });
    this.misses = new LRUCache<string, CachedAnswer>({
      max: Math.max(1, Math.ceil(options.maxEntries / 10)),
      maxSize: Math.max(1, Math.ceil(options.maxBytes / 10)),
      sizeCalculation,
    });
    this.failedKeys = new LRUCache({ max: options.maxEntries });
    this.knownGood = new LRUCache({ max: options.maxEntries * 2 });
  }

  get size(): number {
    return this.entries.size + this.misses.size;
  }

  get bytes(): number {
    return this.entries.calculatedSize + this.misses.calculatedSize;
  }

  private entry(key: string): CachedAnswer | undefined {
    return this.entries.get(key) ?? this.misses.get(key);
  }

  private peekEntry(key: string): CachedAnswer | undefined {
    return this.entries.peek(key) ?? this.misses.peek(key);
  }

  private deleteEntry(key: string): void {
    this.entries.delete(key);
    this.misses.delete(key);
  }

  private setEntry(key: string, answer: CachedAnswer): void {
    const miss = this.options.isMiss?.(answer) ?? false;
    (miss ? this.entries : this.misses).delete(key);
    (miss ? this.misses : this.entries).set(key, answer);
  }

  /** The CMS changed something: every cached answer must be fetched again before it is served as current. */
  invalidateAll(): void {
    this.generation++;
    this.failedKeys.clear();
  }

  /** Forgets everything, last good copies and upstream failures included. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.misses.clear();
    this.failedKeys.clear();
    this.knownGood.clear();
    this.healthFailures = 0;
    this.openedAt = undefined;
  }

  /** True while the circuit breaker pauses every upstream call. */
  get breakerOpen(): boolean {
    return this.openedAt !== undefined && this.now() - this.openedAt < this.options.retryAfterFailureMs;
  }

  /** How this key failed, if it did within `retryAfterFailureMs`. */
  private recentFailure(key: string) {
    const failed = this.failedKeys.get(key);
    return failed && this.now() - failed.at < this.options.retryAfterFailureMs ? failed : undefined;
  }

  private upstreamResting(key: string): boolean {
    return this.breakerOpen || this.recentFailure(key) !== undefined;
  }

  private answered(key: string, ok: boolean): void {
    if (ok) this.knownGood.set(key, true);
    const wasOpen = this.healthFailures >= (this.options.breakerThreshold ?? 3);
    this.healthFailures = 0;
    this.openedAt = undefined;
    if (wasOpen) this.options.onHealthChange?.(true);
  }

  private failed(key: string, err: unknown): void {
    this.failedKeys.set(key, { at: this.now(), result: 'unavailable' });
    const failure = err instanceof UpstreamUnavailable ? err.failure : 'other';
    const health =
      failure === 'connection' || ((failure === 'timeout' || failure === 'server-error') && this.knownGood.has(key));
    if (!health) return;
    this.healthFailures++;
    if (this.healthFailures >= (this.options.breakerThreshold ?? 3)) {
      if (!this.breakerOpen) this.options.onHealthChange?.(false, err);
      this.openedAt = this.now();
    }
  }

  /**
   * The cached answer when it is current (this generation, within its TTL), else undefined. Synchronous, so a
   * route can answer a fresh hit without a promise; anything else goes through `get`.
   */
  fresh(key: string): CachedAnswer | undefined {
    const cached = this.entry(key);
    if (!cached || cached.generation !== this.generation || !this.withinTtl(cached)) return undefined;
    this.counts.hits++;
    return cached;
  }

  /** True when a copy of this generation is cached (fresh or past its TTL): a read then never waits for the upstream. */
  has(key: string): boolean {
    return this.peekEntry(key)?.generation === this.generation;
  }

  private withinTtl(answer: CachedAnswer): boolean {
    return this.now() - answer.storedAt < this.options.ttlMs;
  }

  async get(key: string, load: () => Promise<LoadResult>): Promise<CacheLookup> {
    const cached = this.entry(key);
    if (cached && cached.generation === this.generation) {
      if (this.withinTtl(cached)) {
        this.counts.hits++;
        return { kind: 'ok', answer: cached, stale: false };
      }
      this.counts.stale++;
      if (!this.upstreamResting(key)) {
        this.refresh(key, load).catch((err: unknown) => this.options.onBackgroundError?.(err));
      }
      return { kind: 'ok', answer: cached, stale: true };
    }
    if (this.upstreamResting(key)) {
      if (cached) {
        this.counts.stale++;
        return { kind: 'ok', answer: cached, stale: true };
      }
      if (this.recentFailure(key)?.result === 'bad-request') return { kind: 'bad-request' };
      throw new UpstreamUnavailable(
        this.breakerOpen
          ? 'the CMS failed moments ago; not asking again yet'
          : 'this query failed moments ago; not asking again yet',
        { failure: 'resting' },
      );
    }
    this.counts.misses++;
    try {
      const result = await this.refresh(key, load);
      return result.kind === 'ok' ? { kind: 'ok', answer: result.answer, stale: false } : result;
    } catch (err) {
      if (cached) return { kind: 'ok', answer: cached, stale: true };
      throw err instanceof UpstreamUnavailable
        ? err
        : new UpstreamUnavailable('upstream request failed', { cause: err });
    }
  }

  /** The answer as stored, its compressed forms included (async zlib, once per stored answer, never on a hit). */
  private async toAnswer(
    result: { body: Buffer; contentType: string; status?: number; location?: string },
    generation: number,
  ): Promise<CachedAnswer> {
    const etag = strongEtag(result.body);
    const encoded = await compressAnswer(result.body, result.contentType, etag);
    const { body, contentType, status, location } = result;
    return {
      body,
      contentType,
      etag,
      encoded,
      storedAt: this.now(),
      generation,
      ...(status ? { status } : {}),
      ...(location ? { location } : {}),
    };
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
        this.answered(key, result.kind === 'ok');
        if (result.kind === 'bad-request') this.failedKeys.set(key, { at: this.now(), result: 'bad-request' });
        else this.failedKeys.delete(key);
        if (result.kind !== 'ok') {
          // Unpublished or deleted: do not keep serving the old copy.
          if (result.kind === 'not-found' && generation === this.generation) this.deleteEntry(key);
          return result;
        }
        const answer = await this.toAnswer(result, generation);
        // An answer fetched before a newer webhook never replaces one fetched after it. (An answer larger
        // than the cache allows is not kept by the LRU but is still served to the callers waiting for it.)
        const existing = this.peekEntry(key);
        if (!existing || existing.generation <= generation) this.setEntry(key, answer);
        return { kind: 'ok', answer };
      } catch (err) {
        this.failed(key, err);
        throw err;
      } finally {
        this.inflight.delete(flightKey);
      }
    })();
    this.inflight.set(flightKey, flight);
    return flight;
  }
}
