import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { normaliseQuery, parseContentPath, parseUploadPath, QueryRejected } from '../src/content/allow-list';
import {
  etagMatches,
  ResponseCache,
  strongEtag,
  UpstreamUnavailable,
  type LoadResult,
  type UpstreamFailure,
} from '../src/content/cache';
import { CmsTokenSource, readOrCreateWebhookSecret, secretsEqual, WebhookSecret } from '../src/content/handover';
import { previewKey, previewPageUrl, PREVIEW_MAX_TTL_MS, signPreview, verifyPreview } from '../src/content/preview';

// Every call of crypto.timingSafeEqual is recorded, so the tests can check how secrets are compared.
const timingSafeEqualCalls = vi.hoisted(() => [] as Array<[Buffer, Buffer]>);
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual = (a: Buffer, b: Buffer) => {
    timingSafeEqualCalls.push([a, b]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

const ok = (text: string): LoadResult => ({ kind: 'ok', body: Buffer.from(text), contentType: 'application/json' });

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('ResponseCache', () => {
  const make = (c = clock(), extra: Partial<ConstructorParameters<typeof ResponseCache>[0]> = {}) =>
    new ResponseCache({
      ttlMs: 1000,
      maxEntries: 100,
      maxBytes: 1_000_000,
      retryAfterFailureMs: 0,
      now: c.now,
      ...extra,
    });

  it('serves a fresh entry without calling the loader again', async () => {
    const cache = make();
    let calls = 0;
    const load = async () => (calls++, ok('{"a":1}'));
    const first = await cache.get('k', load);
    const second = await cache.get('k', load);
    expect(calls).toBe(1);
    expect(first).toMatchObject({ kind: 'ok', stale: false });
    expect(second.kind === 'ok' && second.answer.body.toString()).toBe('{"a":1}');
  });

  it('single-flight: concurrent misses share one upstream request', async () => {
    const cache = make();
    const gate = deferred<LoadResult>();
    let calls = 0;
    const load = () => (calls++, gate.promise);
    const waiting = Array.from({ length: 20 }, () => cache.get('k', load));
    gate.resolve(ok('x'));
    const results = await Promise.all(waiting);
    expect(calls).toBe(1);
    expect(results.every((r) => r.kind === 'ok' && r.answer.body.toString() === 'x')).toBe(true);
  });

  it('stale-while-revalidate: past its TTL the old copy is served at once and refreshed in the background', async () => {
    const c = clock();
    const cache = make(c);
    await cache.get('k', async () => ok('v1'));
    c.advance(1500);
    const gate = deferred<LoadResult>();
    let calls = 0;
    const load = () => (calls++, gate.promise);
    const served = await cache.get('k', load);
    expect(served).toMatchObject({ kind: 'ok', stale: true });
    expect(served.kind === 'ok' && served.answer.body.toString()).toBe('v1');
    // A second stale read while the refresh runs does not start another one.
    await cache.get('k', load);
    expect(calls).toBe(1);
    gate.resolve(ok('v2'));
    await flush();
    const fresh = await cache.get('k', load);
    expect(fresh).toMatchObject({ kind: 'ok', stale: false });
    expect(fresh.kind === 'ok' && fresh.answer.body.toString()).toBe('v2');
  });

  it('serves the last good copy, marked stale, when the upstream fails; a miss then throws UpstreamUnavailable', async () => {
    const c = clock();
    const cache = make(c);
    await cache.get('k', async () => ok('good'));
    cache.invalidateAll(); // forces a synchronous refetch, like the webhook
    const failing = async (): Promise<LoadResult> => {
      throw new UpstreamUnavailable('down');
    };
    const served = await cache.get('k', failing);
    expect(served).toMatchObject({ kind: 'ok', stale: true });
    expect(served.kind === 'ok' && served.answer.body.toString()).toBe('good');
    await expect(cache.get('other', failing)).rejects.toBeInstanceOf(UpstreamUnavailable);
  });

  it('after invalidateAll the next read waits for the upstream (an edit is visible at once)', async () => {
    const cache = make();
    await cache.get('k', async () => ok('before'));
    cache.invalidateAll();
    const after = await cache.get('k', async () => ok('after'));
    expect(after).toMatchObject({ kind: 'ok', stale: false });
    expect(after.kind === 'ok' && after.answer.body.toString()).toBe('after');
  });

  it('a request in flight when the webhook arrives is not shared with readers after it', async () => {
    const cache = make();
    const old = deferred<LoadResult>();
    const before = cache.get('k', () => old.promise);
    cache.invalidateAll();
    const after = cache.get('k', async () => ok('new'));
    old.resolve(ok('old'));
    expect(
      (await before).kind === 'ok' && ((await before) as { answer: { body: Buffer } }).answer.body.toString(),
    ).toBe('old');
    const a = await after;
    expect(a.kind === 'ok' && a.answer.body.toString()).toBe('new');
  });

  it('a 404 from the upstream drops the cached copy (unpublished content stops being served)', async () => {
    const c = clock();
    const cache = make(c);
    await cache.get('k', async () => ok('v1'));
    cache.invalidateAll();
    expect(await cache.get('k', async () => ({ kind: 'not-found' }))).toEqual({ kind: 'not-found' });
    expect(cache.size).toBe(0);
  });

  const failing = (failure: UpstreamFailure, counter: { calls: number }) => async (): Promise<LoadResult> => {
    counter.calls++;
    throw new UpstreamUnavailable('down', { failure });
  };

  it('a query that failed is not asked again for a while; its cached copy is served meanwhile', async () => {
    const c = clock();
    const cache = make(c, { retryAfterFailureMs: 2000 });
    await cache.get('k', async () => ok('v1'));
    c.advance(1500);
    const counter = { calls: 0 };
    await cache.get('k', failing('server-error', counter)); // stale read starts a background refresh that fails
    await flush();
    expect(counter.calls).toBe(1);
    expect(await cache.get('k', failing('server-error', counter))).toMatchObject({ kind: 'ok', stale: true });
    expect(counter.calls).toBe(1);
    c.advance(2500);
    await cache.get('k', failing('server-error', counter));
    await flush();
    expect(counter.calls).toBe(2);
  });

  it('one failing query (never worked, 5xx) pauses nobody else: other keys still reach the upstream', async () => {
    const cache = make(clock(), { retryAfterFailureMs: 2000, breakerThreshold: 3 });
    const counter = { calls: 0 };
    for (let i = 0; i < 10; i++)
      await expect(cache.get('attack', failing('server-error', counter))).rejects.toBeInstanceOf(UpstreamUnavailable);
    // Asked once: the key rests after its failure.
    expect(counter.calls).toBe(1);
    expect(cache.breakerOpen).toBe(false);
    for (const k of ['a', 'b', 'c'])
      expect(await cache.get(k, async () => ok(k))).toMatchObject({ kind: 'ok', stale: false });
  });

  it('a 4xx is remembered for its key only (answered again as bad-request without asking) and is no outage', async () => {
    const c = clock();
    const cache = make(c, { retryAfterFailureMs: 2000, breakerThreshold: 1 });
    let calls = 0;
    const rejected = async (): Promise<LoadResult> => (calls++, { kind: 'bad-request' });
    for (let i = 0; i < 5; i++) expect(await cache.get('bad', rejected)).toEqual({ kind: 'bad-request' });
    expect(calls).toBe(1);
    expect(cache.breakerOpen).toBe(false);
    expect(await cache.get('good', async () => ok('g'))).toMatchObject({ kind: 'ok' });
    c.advance(2500);
    await cache.get('bad', rejected);
    expect(calls).toBe(2);
  });

  it('the breaker opens on consecutive connection errors (whatever the key): misses then fail without a request', async () => {
    const c = clock();
    const changes: boolean[] = [];
    const cache = make(c, {
      retryAfterFailureMs: 2000,
      breakerThreshold: 3,
      onHealthChange: (healthy) => changes.push(healthy),
    });
    await cache.get('cached', async () => ok('v'));
    cache.invalidateAll();
    const counter = { calls: 0 };
    for (const k of ['a', 'b'])
      await expect(cache.get(k, failing('connection', counter))).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(cache.breakerOpen).toBe(false);
    await expect(cache.get('c', failing('connection', counter))).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(cache.breakerOpen).toBe(true);
    expect(changes).toEqual([false]);
    await expect(cache.get('d', failing('connection', counter))).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(await cache.get('cached', failing('connection', counter))).toMatchObject({ kind: 'ok', stale: true });
    expect(counter.calls).toBe(3);
    // After the pause the upstream is asked again; an answer closes the breaker.
    c.advance(2500);
    expect(await cache.get('e', async () => ok('e'))).toMatchObject({ kind: 'ok' });
    expect(cache.breakerOpen).toBe(false);
    expect(changes).toEqual([false, true]);
  });

  it('time-outs and 5xx count toward the breaker only on queries that succeeded before', async () => {
    const c = clock();
    const cache = make(c, { retryAfterFailureMs: 2000, breakerThreshold: 2 });
    const counter = { calls: 0 };
    for (const k of ['new1', 'new2', 'new3'])
      await expect(cache.get(k, failing('timeout', counter))).rejects.toBeInstanceOf(UpstreamUnavailable);
    for (const k of ['new4', 'new5'])
      await expect(cache.get(k, failing('server-error', counter))).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(cache.breakerOpen).toBe(false);
    for (const k of ['good1', 'good2']) await cache.get(k, async () => ok(k));
    cache.invalidateAll();
    await cache.get('good1', failing('timeout', counter));
    expect(cache.breakerOpen).toBe(false);
    await cache.get('good2', failing('server-error', counter));
    expect(cache.breakerOpen).toBe(true);
  });

  it('keeps misses apart: any number of them never pushes a real answer out', async () => {
    const cache = make(clock(), { maxEntries: 10, isMiss: (answer) => answer.status === 404 });
    const notFound = (k: string): LoadResult => ({
      kind: 'ok',
      body: Buffer.from(k),
      contentType: 'text/html',
      status: 404,
    });
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => ok(k));
    for (let i = 0; i < 100; i++) await cache.get(`miss${i}`, async () => notFound(`miss${i}`));
    for (const k of ['a', 'b', 'c']) expect(cache.has(k)).toBe(true);
    // Misses get a tenth of the room: the most recent one is kept, the oldest are gone.
    expect(cache.has('miss99')).toBe(true);
    expect(cache.has('miss0')).toBe(false);
    expect(cache.size).toBe(4);
    // An answer that turns from a miss into a real one moves over.
    await cache.get('miss99', async () => ok('found now'));
    cache.invalidateAll();
    await cache.get('miss99', async () => ok('found now'));
    expect(cache.size).toBe(4);
    expect(cache.has('miss99')).toBe(true);
  });

  it('is bounded in entries and bytes, dropping the least recently used', async () => {
    const cache = make(clock(), { maxEntries: 3, maxBytes: 1_000_000 });
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => ok(k));
    await cache.get('a', async () => ok('a')); // touch a
    await cache.get('d', async () => ok('d'));
    expect(cache.size).toBe(3);
    let reloaded = false;
    await cache.get('b', async () => ((reloaded = true), ok('b')));
    expect(reloaded).toBe(true);

    const small = make(clock(), { maxEntries: 100, maxBytes: 5000 });
    for (let i = 0; i < 20; i++) await small.get(`k${i}`, async () => ok('x'.repeat(1000)));
    expect(small.bytes).toBeLessThanOrEqual(5000);
    // An answer bigger than the whole cache is served but not kept.
    const big = await small.get('big', async () => ok('y'.repeat(10_000)));
    expect(big.kind === 'ok' && big.answer.body.length).toBe(10_000);
  });
});

describe('ETags', () => {
  it('are strong, quoted and change with the body', () => {
    const a = strongEtag(Buffer.from('a'));
    expect(a).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(strongEtag(Buffer.from('a'))).toBe(a);
    expect(strongEtag(Buffer.from('b'))).not.toBe(a);
  });
  it('If-None-Match matches lists, weak forms and *', () => {
    expect(etagMatches('"x"', '"x"')).toBe(true);
    expect(etagMatches('"y", W/"x"', '"x"')).toBe(true);
    expect(etagMatches('*', '"x"')).toBe(true);
    expect(etagMatches('"y"', '"x"')).toBe(false);
    expect(etagMatches(undefined, '"x"')).toBe(false);
  });
});

describe('content allow-list', () => {
  it('accepts the five content types, ids only on collections, and a trailing slash', () => {
    expect(parseContentPath('topics')).toEqual({ type: 'topics' });
    expect(parseContentPath('topics/abc123def456ghi789jkl012')).toEqual({
      type: 'topics',
      documentId: 'abc123def456ghi789jkl012',
    });
    expect(parseContentPath('error-messages/')).toEqual({ type: 'error-messages' });
    expect(parseContentPath('license')).toEqual({ type: 'license' });
    for (const bad of [
      'users',
      'license/abc',
      'topics/../admin',
      'topics/a/b',
      '',
      'constructor',
      '__proto__',
      'topics/a.b',
      'upload/files',
    ]) {
      expect(parseContentPath(bad), bad).toBeUndefined();
    }
  });

  it('normalises allowed parameters into a sorted, decoded list', () => {
    const q = normaliseQuery(
      'topics',
      'sort=order%3Aasc&filters%5Bslug%5D%5B%24eq%5D=contact&populate=*&pagination%5BpageSize%5D=500&fields%5B0%5D=title',
    );
    expect(q.preview).toBe(false);
    expect(q.pairs).toEqual([
      ['fields[0]', 'title'],
      ['filters[slug][$eq]', 'contact'],
      ['pagination[pageSize]', '100'],
      ['populate', '*'],
      ['sort', 'order:asc'],
    ]);
    // The same query in another order gives the same list (one cache entry).
    expect(
      normaliseQuery(
        'topics',
        'populate=*&fields[0]=title&sort=order:asc&pagination[pageSize]=100&filters[slug][$eq]=contact',
      ).pairs,
    ).toEqual(q.pairs);
  });

  it('takes publicationState out of the list and reports preview', () => {
    expect(normaliseQuery('topics', 'publicationState=preview&populate=*')).toEqual({
      pairs: [['populate', '*']],
      preview: true,
    });
    expect(normaliseQuery('topics', 'publicationState=live')).toEqual({ pairs: [], preview: false });
  });

  it.each([
    ['home-page', 'populate[featuredTopics][fields][0]=title'],
    ['home-page', 'populate[featuredTopics][sort]=order:asc'],
    ['home-page', 'populate[featuredTopics][sort][0]=order:desc'],
    ['home-page', 'populate[featuredTopics][filters][slug][$eq]=contact'],
    ['home-page', 'populate[featuredTopics][populate]=*'],
    ['home-page', 'populate[featuredTopics]=true'],
    ['home-page', 'populate[notices][fields][0]=title'],
    ['home-page', 'populate[0]=featuredTopics'],
    ['home-page', 'populate=featuredTopics,notices'],
    ['error-messages', 'filters[ErrorCode][$in][0]=A&filters[ErrorCode][$in][1]=B'],
    ['topics', 'filters[title][$containsi]=med&filters[slug][$eqi]=X'],
    ['topics', 'filters[order][$eq]=-3&filters[id][$in][0]=7'],
    ['topics', 'filters[publishedAt][$eq]=2026-01-01T00:00:00.000Z&filters[updatedAt][$eq]=2026-01-01'],
    ['topics', 'fields[0]=title&fields[1]=publishedAt&sort=order:asc,title'],
  ] as const)('accepts on %s: %s', (type, query) => {
    expect(() => normaliseQuery(type, query)).not.toThrow();
  });

  // Each case has exactly one thing wrong; the reason says which.
  it.each([
    ['topics', 'status=draft', 'status is never passed'],
    ['topics', 'locale=es', 'locale is never passed'],
    ['topics', '_q=medicare', '_q is never passed'],
    ['topics', 'publicationFilter=never-published-document', 'publicationFilter is never passed'],
    ['topics', 'hasPublishedVersion=true', 'hasPublishedVersion is never passed'],
    ['topics', 'populate[createdBy]=true', 'createdBy is never passed'],
    ['topics', 'filters[updatedBy][id][$eq]=1', 'updatedBy is never passed'],
    ['home-page', 'populate[featuredTopics][status]=draft', 'status is never passed'],
    ['home-page', 'populate[featuredTopics][locale]=es', 'locale is never passed'],
    ['home-page', 'populate[featuredTopics][filters][createdBy][firstname]=Ann', 'createdBy is never passed'],
    ['home-page', 'populate[featuredTopics][populate][createdBy]=true', 'createdBy is never passed'],
    ['home-page', 'populate[featuredTopics][publicationState]=preview', 'publicationState is never passed'],
    ['topics', 'populate[featuredTopics]=true', 'topics has no relation featuredTopics'],
    ['home-page', 'populate[noSuch]=true', 'home-page has no relation noSuch'],
    ['home-page', 'populate=featuredTopics,noSuch', 'home-page has no relation noSuch'],
    ['home-page', 'populate[featuredTopics][count]=true', 'does not take count'],
    ['home-page', 'populate[featuredTopics][fields][0]=heroTitle', 'topics has no field heroTitle'],
    ['home-page', 'populate[featuredTopics][populate][a][populate][b]=true', 'topics has no relation a'],
    ['topics', 'filters[order][$eq]=abc', 'order takes an integer'],
    ['topics', 'filters[order][$eq]=1.5', 'order takes an integer'],
    ['topics', 'filters[id][$in][0]=x', 'id takes an integer'],
    ['topics', 'filters[publishedAt][$eq]=notadate', 'publishedAt takes a datetime'],
    ['topics', 'filters[order][$containsi]=1', 'filter $containsi is not allowed on order'],
    ['topics', 'filters[jurisdictions][$containsi]=J5', 'filter $containsi is not allowed on jurisdictions'],
    ['topics', 'filters[noSuchField][$eq]=1', 'topics has no field noSuchField'],
    ['topics', 'filters[slug][$ne]=x', 'filter $ne is not allowed on slug'],
    ['topics', 'sort=jurisdictions:asc', 'cannot be sorted by jurisdictions'],
    ['topics', 'sort=title;drop', 'bad sort'],
    ['topics', 'fields[0]=a.b', 'topics has no field a.b'],
    ['topics', 'populate=createdBy%0A', 'control characters'],
    ['topics', 'pagination[page]=0', 'bad page'],
    ['topics', 'pagination[pageSize]=-1', 'bad pageSize'],
    ['topics', 'pagination[limit]=1000', 'not allowed'],
    ['topics', 'publicationState=draft', 'bad publicationState'],
    ['topics', '%E0%A4%A=1', 'malformed percent-encoding'],
    ['topics', `filters[slug][$eq]=${'x'.repeat(300)}`, 'too long'],
    ['topics', Array.from({ length: 41 }, () => `fields[0]=title`).join('&'), 'too many parameters'],
  ] as const)('rejects on %s: %s', (type, query, reason) => {
    let error: unknown;
    try {
      normaliseQuery(type, query);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(QueryRejected);
    expect((error as QueryRejected).reason).toContain(reason);
  });

  it('upload paths are plain file names', () => {
    expect(parseUploadPath('logo_abc123.png')).toBe('logo_abc123.png');
    expect(parseUploadPath('thumbnail_logo_abc.png')).toBe('thumbnail_logo_abc.png');
    for (const bad of ['../secret', '.env', 'a/../../b', '', 'a b.png', 'x/..'])
      expect(parseUploadPath(bad), bad).toBeUndefined();
  });
});

describe('token and webhook secret handover', () => {
  const root = mkdtempSync(join(tmpdir(), 'portal-handover-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  it('reads the token file lazily and again on request (the CMS may write or rewrite it later)', async () => {
    const dir = mkdtempSync(join(root, 'case-'));
    const file = join(dir, 'cms-api-token');
    const tokens = new CmsTokenSource(undefined, file);
    expect(await tokens.current()).toBeUndefined();
    writeFileSync(file, 'first-token\n');
    expect(await tokens.current()).toBe('first-token');
    writeFileSync(file, 'second-token\n');
    expect(await tokens.current()).toBe('first-token');
    expect(await tokens.reload()).toBe('second-token');
    expect(new CmsTokenSource('from-env', file).rereadable).toBe(false);
  });

  it('creates the webhook secret file once with mode 0600, and reads the one another process created', () => {
    const dir = mkdtempSync(join(root, 'case-'));
    const file = join(dir, 'nested', 'cms-webhook-secret');
    const created = readOrCreateWebhookSecret(file);
    expect(created.length).toBeGreaterThanOrEqual(40);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateWebhookSecret(file)).toBe(created);
    const other = join(dir, 'cms-created');
    writeFileSync(other, 'secret-written-by-the-cms-0123456789\n', { mode: 0o600 });
    expect(readOrCreateWebhookSecret(other)).toBe('secret-written-by-the-cms-0123456789');
    expect(existsSync(file) && readFileSync(file, 'utf8').trim()).toBe(created);
  });

  it('compares secrets with crypto.timingSafeEqual on equal-length digests, whatever the lengths given', () => {
    timingSafeEqualCalls.length = 0;
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abd')).toBe(false);
    expect(secretsEqual('ab', 'abc')).toBe(false);
    expect(secretsEqual('x'.repeat(500), 'abc')).toBe(false);
    expect(timingSafeEqualCalls).toHaveLength(4);
    for (const [a, b] of timingSafeEqualCalls) {
      expect(a.length).toBe(32);
      expect(b.length).toBe(32);
    }
  });

  it('the webhook secret rejects wrong, empty or non-string values, and is read once at start', () => {
    const dir = mkdtempSync(join(root, 'case-'));
    const secret = new WebhookSecret('configured-secret-value', join(dir, 'unused'));
    expect(secret.verify('configured-secret-value')).toBe(true);
    expect(secret.verify('configured-secret-valuE')).toBe(false);
    expect(secret.verify('')).toBe(false);
    expect(secret.verify(['configured-secret-value'])).toBe(false);
    expect(existsSync(join(dir, 'unused'))).toBe(false);
    // From the file: a value written there later is not picked up per request.
    const file = join(dir, 'cms-webhook-secret');
    writeFileSync(file, 'first-secret-0123456789\n', { mode: 0o600 });
    const fromFile = new WebhookSecret(undefined, file);
    writeFileSync(file, 'second-secret-0123456789\n', { mode: 0o600 });
    expect(fromFile.verify('second-secret-0123456789')).toBe(false);
    expect(fromFile.verify('first-secret-0123456789')).toBe(true);
  });
});

describe('preview signature', () => {
  const key = previewKey('webhook-secret-0123456789abcdef');
  const now = 1_800_000_000_000;
  const grant = { type: 'topics', documentId: 'abc123def456', expires: now + 60_000 } as const;
  const asked = (over: Partial<{ type: string; documentId: string; expires: unknown; signature: unknown }> = {}) => ({
    type: grant.type as string,
    documentId: grant.documentId as string,
    expires: String(grant.expires) as unknown,
    signature: signPreview(key, grant) as unknown,
    ...over,
  });
  beforeEach(() => void (timingSafeEqualCalls.length = 0));
  afterEach(() => void (timingSafeEqualCalls.length = 0));

  it('a link signed for a document is valid for that document until it expires, compared in constant time', () => {
    expect(verifyPreview(key, asked(), now)).toEqual(grant);
    expect(timingSafeEqualCalls.at(-1)!.map((b) => b.length)).toEqual([32, 32]);
    expect(verifyPreview(key, asked(), now + 60_000)).toBeUndefined();
  });

  it('refuses a wrong key, another document, another type, a moved expiry or an expiry too far away', () => {
    expect(verifyPreview(previewKey('another-secret-0123456789abcdef'), asked(), now)).toBeUndefined();
    expect(verifyPreview(key, asked({ documentId: 'zzz999zzz999' }), now)).toBeUndefined();
    expect(verifyPreview(key, asked({ type: 'home-page' }), now)).toBeUndefined();
    expect(verifyPreview(key, asked({ expires: String(now + 120_000) }), now)).toBeUndefined();
    const farAway = { ...grant, expires: now + PREVIEW_MAX_TTL_MS + 1 };
    expect(
      verifyPreview(key, asked({ expires: String(farAway.expires), signature: signPreview(key, farAway) }), now),
    ).toBeUndefined();
  });

  it('refuses missing or malformed parameters', () => {
    for (const bad of [undefined, '', 'x', 'A'.repeat(44), ['a']])
      expect(verifyPreview(key, asked({ signature: bad }), now), String(bad)).toBeUndefined();
    for (const bad of [undefined, '', '-1', '1e15', 'soon'])
      expect(verifyPreview(key, asked({ expires: bad }), now), String(bad)).toBeUndefined();
    expect(verifyPreview(key, asked({ documentId: '../x' }), now)).toBeUndefined();
  });

  it("the page's address carries the expiry and signature the portal checks", () => {
    const link = new URL(previewPageUrl('https://portal.example/', key, grant));
    expect(link.pathname).toBe('/preview/topics/abc123def456');
    expect(
      verifyPreview(
        key,
        {
          ...asked(),
          expires: link.searchParams.get('expires'),
          signature: link.searchParams.get('signature'),
        },
        now,
      ),
    ).toEqual(grant);
  });
});
