import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normaliseQuery, parseContentPath, parseUploadPath, QueryRejected } from '../src/content/allow-list';
import { etagMatches, ResponseCache, strongEtag, UpstreamUnavailable, type LoadResult } from '../src/content/cache';
import { CmsTokenSource, readOrCreateWebhookSecret, secretsEqual, WebhookSecret } from '../src/content/handover';

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
    new ResponseCache({ ttlMs: 1000, maxEntries: 100, maxBytes: 1_000_000, retryAfterFailureMs: 0, now: c.now, ...extra });

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
    expect((await before).kind === 'ok' && ((await before) as { answer: { body: Buffer } }).answer.body.toString()).toBe('old');
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

  it('after a failure the upstream rests: cached copies are served and misses fail without a request', async () => {
    const c = clock();
    const cache = make(c, { retryAfterFailureMs: 2000 });
    await cache.get('k', async () => ok('v1'));
    c.advance(1500);
    let calls = 0;
    const failing = async (): Promise<LoadResult> => {
      calls++;
      throw new UpstreamUnavailable('down');
    };
    await cache.get('k', failing); // stale read starts a background refresh that fails
    await flush();
    expect(calls).toBe(1);
    await cache.get('k', failing);
    await expect(cache.get('miss', failing)).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(calls).toBe(1);
    c.advance(2500);
    await expect(cache.get('miss', failing)).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(calls).toBe(2);
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
    expect(parseContentPath('topics/abc123def456ghi789jkl012')).toEqual({ type: 'topics', documentId: 'abc123def456ghi789jkl012' });
    expect(parseContentPath('error-messages/')).toEqual({ type: 'error-messages' });
    expect(parseContentPath('license')).toEqual({ type: 'license' });
    for (const bad of ['users', 'license/abc', 'topics/../admin', 'topics/a/b', '', 'constructor', '__proto__', 'topics/a.b', 'upload/files']) {
      expect(parseContentPath(bad), bad).toBeUndefined();
    }
  });

  it('normalises allowed parameters into a sorted, decoded list', () => {
    const q = normaliseQuery('sort=order%3Aasc&filters%5Bslug%5D%5B%24eq%5D=contact&populate=*&pagination%5BpageSize%5D=500&fields%5B0%5D=title');
    expect(q.preview).toBe(false);
    expect(q.pairs).toEqual([
      ['fields[0]', 'title'],
      ['filters[slug][$eq]', 'contact'],
      ['pagination[pageSize]', '100'],
      ['populate', '*'],
      ['sort', 'order:asc'],
    ]);
    // The same query in another order gives the same list (one cache entry).
    expect(normaliseQuery('populate=*&fields[0]=title&sort=order:asc&pagination[pageSize]=100&filters[slug][$eq]=contact').pairs).toEqual(q.pairs);
  });

  it('takes publicationState out of the list and reports preview', () => {
    expect(normaliseQuery('publicationState=preview&populate=*')).toEqual({ pairs: [['populate', '*']], preview: true });
    expect(normaliseQuery('publicationState=live')).toEqual({ pairs: [], preview: false });
  });

  it('accepts nested populate, $in arrays, $eqi and $containsi', () => {
    expect(() => normaliseQuery('populate[featuredTopics][fields][0]=title&filters[ErrorCode][$in][0]=A&filters[title][$containsi]=med&filters[slug][$eqi]=X')).not.toThrow();
  });

  it.each([
    'status=draft',
    'locale=es',
    'filters[slug][$ne]=x',
    'filters[createdBy][id][$eq]=1',
    'populate=createdBy%0A',
    'sort=title;drop',
    'pagination[page]=0',
    'pagination[pageSize]=-1',
    'pagination[limit]=1000',
    'fields[0]=a.b',
    'publicationState=draft',
    '%E0%A4%A=1',
    `filters[slug][$eq]=${'x'.repeat(300)}`,
    Array.from({ length: 41 }, (_, i) => `fields[${i}]=a`).join('&'),
  ])('rejects %s', (query) => {
    expect(() => normaliseQuery(query)).toThrow(QueryRejected);
  });

  it('upload paths are plain file names', () => {
    expect(parseUploadPath('logo_abc123.png')).toBe('logo_abc123.png');
    expect(parseUploadPath('thumbnail_logo_abc.png')).toBe('thumbnail_logo_abc.png');
    for (const bad of ['../secret', '.env', 'a/../../b', '', 'a b.png', 'x/..']) expect(parseUploadPath(bad), bad).toBeUndefined();
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

  it('verifies in constant time and rejects wrong, empty or non-string values', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abd')).toBe(false);
    expect(secretsEqual('ab', 'abc')).toBe(false);
    const dir = mkdtempSync(join(root, 'case-'));
    const secret = new WebhookSecret('configured-secret-value', join(dir, 'unused'));
    expect(secret.verify('configured-secret-value')).toBe(true);
    expect(secret.verify('configured-secret-valuE')).toBe(false);
    expect(secret.verify('')).toBe(false);
    expect(secret.verify(['configured-secret-value'])).toBe(false);
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  });
});
