/**
 * What the content proxy lets through to the CMS (docs/requirements/api.md#content-proxy: an allow-list of upstream paths, methods and
 * parameters, so the proxy cannot be used to reach anything else the CMS's token can read).
 */

/** Content types the SPA reads; `single` types (Strapi single types) take no document id. */
export const CONTENT_TYPES: Readonly<Record<string, { single: boolean }>> = {
  topics: { single: false },
  'home-page': { single: true },
  license: { single: true },
  'error-messages': { single: false },
  'security-questions': { single: false },
};

/** Strapi 5 document ids are 24-character cuid2 strings; leave some room, never `.` or `/`. */
const DOCUMENT_ID = /^[A-Za-z0-9]{1,64}$/;
const FIELD = '[A-Za-z_][A-Za-z0-9_]{0,63}';
const FIELD_RE = new RegExp(`^${FIELD}$`);
const FIELD_LIST_RE = new RegExp(`^${FIELD}(,${FIELD})*$`);
const SORT_RE = new RegExp(`^${FIELD}(:(asc|desc))?(,${FIELD}(:(asc|desc))?)*$`, 'i');
const POPULATE_KEY_RE = new RegExp(`^populate(\\[(${FIELD}|\\*|\\d{1,2})\\]){0,6}$`);
const FILTER_KEY_RE = new RegExp(`^filters\\[${FIELD}\\]\\[\\$(eq|eqi|in|containsi)\\](\\[\\d{1,2}\\])?$`);
const INDEXED_RE = (name: string) => new RegExp(`^${name}(\\[\\d{1,2}\\])?$`);
const SORT_KEY_RE = INDEXED_RE('sort');
const FIELDS_KEY_RE = /^fields\[\d{1,2}\]$/;
const POSITIVE_INT = /^[1-9]\d{0,5}$/;

export const MAX_PAGE_SIZE = 100;
const MAX_QUERY_LENGTH = 2048;
const MAX_PARAMS = 40;
const MAX_VALUE_LENGTH = 256;

export type ContentPath = { type: string; documentId?: string };

export class QueryRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'QueryRejected';
  }
}

/**
 * Splits the wildcard part of `/api/content/<type>[/<documentId>]` (a trailing slash is tolerated: the spec's
 * SPA asks for `error-messages/?filters…`). Returns undefined for anything that is not an allowed type/id.
 */
export function parseContentPath(wildcard: string): ContentPath | undefined {
  const parts = wildcard.split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 1 || parts.length > 2) return undefined;
  const [type, documentId] = parts as [string, string | undefined];
  const spec = Object.hasOwn(CONTENT_TYPES, type) ? CONTENT_TYPES[type] : undefined;
  if (!spec) return undefined;
  if (documentId === undefined) return { type };
  if (spec.single || !DOCUMENT_ID.test(documentId)) return undefined;
  return { type, documentId };
}

export interface NormalisedQuery {
  /** Upstream query pairs, sorted by key (stable, so repeated keys keep their order), without publicationState. */
  pairs: Array<[string, string]>;
  /** The caller asked for drafts (`publicationState=preview`); the plugin decides whether to honour it. */
  preview: boolean;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new QueryRejected('malformed percent-encoding');
  }
}

function checkValue(key: string, value: string): string {
  if (value.length > MAX_VALUE_LENGTH) throw new QueryRejected(`value of ${key} is too long`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new QueryRejected(`value of ${key} has control characters`);
  if (key === 'populate' || POPULATE_KEY_RE.test(key)) {
    if (value === '*' || value === 'true' || value === 'false' || FIELD_LIST_RE.test(value)) return value;
    throw new QueryRejected(`bad ${key}`);
  }
  if (FILTER_KEY_RE.test(key)) return value;
  if (SORT_KEY_RE.test(key)) {
    if (SORT_RE.test(value)) return value;
    throw new QueryRejected('bad sort');
  }
  if (FIELDS_KEY_RE.test(key)) {
    if (FIELD_RE.test(value)) return value;
    throw new QueryRejected('bad fields');
  }
  if (key === 'pagination[page]') {
    if (POSITIVE_INT.test(value)) return value;
    throw new QueryRejected('bad page');
  }
  if (key === 'pagination[pageSize]') {
    if (!POSITIVE_INT.test(value)) throw new QueryRejected('bad pageSize');
    return String(Math.min(Number(value), MAX_PAGE_SIZE));
  }
  throw new QueryRejected(`parameter ${key} is not allowed`);
}

/**
 * Checks every query parameter against the allow-list and returns them normalised (decoded, sorted by key).
 * Throws QueryRejected for anything else; the caller answers 400 Validation_Failed.
 */
export function normaliseQuery(rawQuery: string): NormalisedQuery {
  if (rawQuery.length > MAX_QUERY_LENGTH) throw new QueryRejected('query too long');
  const pairs: Array<[string, string]> = [];
  let preview = false;
  let count = 0;
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    if (++count > MAX_PARAMS) throw new QueryRejected('too many parameters');
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    if (key === 'publicationState') {
      if (value === 'preview') preview = true;
      else if (value !== 'live') throw new QueryRejected('bad publicationState');
      continue;
    }
    pairs.push([key, checkValue(key, value)]);
  }
  // Array.prototype.sort is stable: repeated keys (sort=a&sort=b) keep their meaning.
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { pairs, preview };
}

/** Encodes pairs for the upstream URL; brackets and `$` stay readable (Strapi's qs parser takes both forms). */
export function encodeQuery(pairs: ReadonlyArray<readonly [string, string]>): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%24/g, '$').replace(/%2C/g, ',').replace(/%3A/g, ':');
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

/** A content request that passed the allow-list: what to ask the CMS for, and the cache key of its answer. */
export interface ContentRequest {
  path: ContentPath;
  pairs: Array<[string, string]>;
  preview: boolean;
  /** Same for every spelling of the same upstream request (order of parameters, percent-encoding). */
  cacheKey: string;
}

/**
 * Checks `/api/content/<wildcard>?<rawQuery>`: undefined when the path is not an allowed type/id, QueryRejected
 * when a parameter is not allowed.
 */
export function parseContentRequest(wildcard: string, rawQuery: string): ContentRequest | undefined {
  const path = parseContentPath(wildcard);
  if (!path) return undefined;
  const { pairs, preview } = normaliseQuery(rawQuery);
  return { path, pairs, preview, cacheKey: `${path.type}/${path.documentId ?? ''}?${encodeQuery(pairs)}` };
}

/** Paths under /uploads/ that may be fetched from the CMS: plain file names, optionally in folders. */
const UPLOAD_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;
export function parseUploadPath(wildcard: string): string | undefined {
  const segments = wildcard.split('/');
  if (segments.length > 4) return undefined;
  for (const segment of segments) if (!UPLOAD_SEGMENT.test(segment) || segment.includes('..')) return undefined;
  return segments.join('/');
}
