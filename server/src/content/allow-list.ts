/**
 * What the content proxy lets through to the CMS (docs/requirements/api.md#content-proxy: an allow-list of upstream paths, methods and
 * parameters, so the proxy cannot be used to reach anything else the CMS's token can read). The content types,
 * their fields and relations are data: packages/contracts/src/content-types.json.
 */
import {
  contentComponents,
  contentSystemFields,
  contentTypes,
  type ContentFieldType,
  type ContentTypeName,
} from '@portal/contracts/content-types';

/** Strapi 5 document ids are 24-character cuid2 strings; leave some room, never `.` or `/`. */
const DOCUMENT_ID = /^[A-Za-z0-9]{1,64}$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const SORT_ITEM = /^([A-Za-z_][A-Za-z0-9_]{0,63})(:(asc|desc))?$/i;
const INDEX = /^\d{1,2}$/;
const POSITIVE_INT = /^[1-9]\d{0,5}$/;
/** Strapi's integer columns are 32-bit. */
const INTEGER = /^-?\d{1,9}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
/** Operators by field type: case-insensitive ones only on text; nothing on JSON fields. */
const OPERATORS: Readonly<Record<ContentFieldType, ReadonlySet<string>>> = {
  string: new Set(['$eq', '$eqi', '$in', '$containsi']),
  integer: new Set(['$eq', '$in']),
  boolean: new Set(['$eq']),
  datetime: new Set(['$eq', '$in']),
  json: new Set(),
};
/**
 * Names Strapi gives a meaning the portal must never pass on (drafts, locales, authors, full-text search), refused
 * wherever they appear in a parameter name.
 */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  'status',
  'publicationState',
  'publicationFilter',
  'hasPublishedVersion',
  'locale',
  'createdBy',
  'updatedBy',
  '_q',
]);

export const MAX_PAGE_SIZE = 100;
const MAX_QUERY_LENGTH = 2048;
const MAX_PARAMS = 40;
const MAX_VALUE_LENGTH = 256;
const MAX_POPULATE_DEPTH = 3;

export type ContentPath = { type: ContentTypeName; documentId?: string };

export class QueryRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'QueryRejected';
  }
}

/**
 * Splits the wildcard part of `/api/content/<type>[/<documentId>]` (a trailing slash is tolerated: the SPA asks
 * for `error-messages/?filters…`). Returns undefined for anything that is not an allowed type/id.
 */
export function parseContentPath(wildcard: string): ContentPath | undefined {
  const parts = wildcard.split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 1 || parts.length > 2) return undefined;
  const [type, documentId] = parts as [string, string | undefined];
  if (!Object.hasOwn(contentTypes, type)) return undefined;
  const spec = contentTypes[type as ContentTypeName];
  if (documentId === undefined) return { type: type as ContentTypeName };
  if (spec.single || !DOCUMENT_ID.test(documentId)) return undefined;
  return { type: type as ContentTypeName, documentId };
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

/** `populate[a][fields][0]` → ['populate', 'a', 'fields', '0']; undefined when the brackets are not well formed. */
function segmentsOf(key: string): string[] | undefined {
  const open = key.indexOf('[');
  const head = open === -1 ? key : key.slice(0, open);
  const segments = [head];
  let rest = open === -1 ? '' : key.slice(open);
  while (rest) {
    const m = /^\[([^[\]]*)\]/.exec(rest);
    if (!m) return undefined;
    segments.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return segments;
}

/** A content type's or component's fields and relations, as the allow-list sees them. */
interface Schema {
  name: string;
  fields: Readonly<Record<string, ContentFieldType>>;
  relations: Readonly<Record<string, string>>;
}

function schemaOf(name: string): Schema {
  if (Object.hasOwn(contentTypes, name)) {
    const type = contentTypes[name as ContentTypeName];
    return { name, fields: { ...contentSystemFields, ...type.fields }, relations: type.relations };
  }
  const component = contentComponents[name];
  if (!component) throw new Error(`content-types.json names an unknown relation target ${name}`);
  return { name, ...component };
}

const fieldOf = (schema: Schema, field: string) =>
  Object.hasOwn(schema.fields, field) ? schema.fields[field] : undefined;
const relationOf = (schema: Schema, relation: string) =>
  Object.hasOwn(schema.relations, relation) ? schemaOf(schema.relations[relation]!) : undefined;

function checkTyped(type: ContentFieldType, field: string, value: string) {
  const ok =
    type === 'string' ||
    (type === 'integer' && INTEGER.test(value)) ||
    (type === 'boolean' && (value === 'true' || value === 'false')) ||
    (type === 'datetime' && DATETIME.test(value) && !Number.isNaN(Date.parse(value)));
  if (!ok) throw new QueryRejected(`${field} takes ${type === 'integer' ? 'an integer' : `a ${type}`}, not "${value}"`);
}

/** `fields[<i>]=<field>` */
function checkFields(schema: Schema, rest: string[], value: string) {
  if (rest.length !== 1 || !INDEX.test(rest[0]!)) throw new QueryRejected('fields takes fields[<index>]=<field>');
  if (!fieldOf(schema, value)) throw new QueryRejected(`${schema.name} has no field ${value}`);
}

/** `sort=<field>[:asc|desc][,…]` or `sort[<i>]=…` */
function checkSort(schema: Schema, rest: string[], value: string) {
  if (rest.length > 1 || (rest.length === 1 && !INDEX.test(rest[0]!)))
    throw new QueryRejected('sort takes sort or sort[<index>]');
  for (const item of value.split(',')) {
    const m = SORT_ITEM.exec(item);
    if (!m) throw new QueryRejected('bad sort');
    const type = fieldOf(schema, m[1]!);
    if (!type || type === 'json') throw new QueryRejected(`${schema.name} cannot be sorted by ${m[1]}`);
  }
}

/** `filters[<field>][<operator>]=<value>`, `[$in][<i>]`; the value must suit the field's type. */
function checkFilter(schema: Schema, rest: string[], value: string) {
  const [field, operator, index, ...more] = rest;
  if (field === undefined || operator === undefined || more.length)
    throw new QueryRejected('filters takes filters[<field>][<operator>]');
  const type = fieldOf(schema, field);
  if (!type) throw new QueryRejected(`${schema.name} has no field ${field} to filter on`);
  if (!OPERATORS[type].has(operator)) throw new QueryRejected(`filter ${operator} is not allowed on ${field}`);
  if (index !== undefined && (operator !== '$in' || !INDEX.test(index)))
    throw new QueryRejected('only $in takes an index');
  checkTyped(type, field, value);
}

/**
 * `populate` under a content type or relation: `populate=*`, `populate=<relation>[,…]`, `populate[<i>]=<relation>`,
 * `populate[<relation>]=true|*`, and under a relation only fields, sort, filters and populate again.
 */
function checkPopulate(schema: Schema, rest: string[], value: string, depth: number) {
  if (depth > MAX_POPULATE_DEPTH) throw new QueryRejected('populate is nested too deeply');
  const [name, ...below] = rest;
  if (name === undefined) {
    if (value === '*') return;
    for (const relation of value.split(','))
      if (!relationOf(schema, relation)) throw new QueryRejected(`${schema.name} has no relation ${relation}`);
    return;
  }
  if (INDEX.test(name)) {
    if (below.length || !relationOf(schema, value)) throw new QueryRejected(`${schema.name} has no relation ${value}`);
    return;
  }
  const target = relationOf(schema, name);
  if (!target) throw new QueryRejected(`${schema.name} has no relation ${name}`);
  const [part, ...deeper] = below;
  if (part === undefined) {
    if (value === 'true' || value === '*') return;
    throw new QueryRejected(`populate[${name}] takes true or *`);
  }
  if (part === 'fields') return checkFields(target, deeper, value);
  if (part === 'sort') return checkSort(target, deeper, value);
  if (part === 'filters') return checkFilter(target, deeper, value);
  if (part === 'populate') return checkPopulate(target, deeper, value, depth + 1);
  throw new QueryRejected(`populate[${name}] does not take ${part}`);
}

/** Checks one decoded parameter of a request for `type`; returns the value to send upstream. */
function checkParameter(type: ContentTypeName, key: string, value: string): string {
  if (value.length > MAX_VALUE_LENGTH) throw new QueryRejected(`value of ${key} is too long`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new QueryRejected(`value of ${key} has control characters`);
  const segments = segmentsOf(key);
  if (!segments) throw new QueryRejected(`parameter ${key} is not allowed`);
  for (const segment of segments)
    if (FORBIDDEN_NAMES.has(segment)) throw new QueryRejected(`${segment} is never passed to the CMS`);
  for (const segment of segments.slice(1))
    if (!NAME.test(segment) && !INDEX.test(segment) && !/^\$[a-z]{2,9}$/.test(segment))
      throw new QueryRejected(`parameter ${key} is not allowed`);
  const [head, ...rest] = segments as [string, ...string[]];
  const schema = schemaOf(type);
  switch (head) {
    case 'fields':
      checkFields(schema, rest, value);
      return value;
    case 'sort':
      checkSort(schema, rest, value);
      return value;
    case 'filters':
      checkFilter(schema, rest, value);
      return value;
    case 'populate':
      checkPopulate(schema, rest, value, 1);
      return value;
    case 'pagination':
      if (rest.length === 1 && rest[0] === 'page') {
        if (POSITIVE_INT.test(value)) return value;
        throw new QueryRejected('bad page');
      }
      if (rest.length === 1 && rest[0] === 'pageSize') {
        if (!POSITIVE_INT.test(value)) throw new QueryRejected('bad pageSize');
        return String(Math.min(Number(value), MAX_PAGE_SIZE));
      }
      throw new QueryRejected(`parameter ${key} is not allowed`);
    default:
      throw new QueryRejected(`parameter ${key} is not allowed`);
  }
}

/**
 * Checks every query parameter against the allow-list of `type` (its fields, their types and its relations, from
 * the contracts' content-types.json) and returns them normalised (decoded, sorted by key). Throws QueryRejected
 * for anything else; the caller answers 400 Validation_Failed.
 */
export function normaliseQuery(type: ContentTypeName, rawQuery: string): NormalisedQuery {
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
    // The one top-level use of a forbidden name: the SPA's preview switch, which never goes upstream as such.
    if (key === 'publicationState') {
      if (value === 'preview') preview = true;
      else if (value !== 'live') throw new QueryRejected('bad publicationState');
      continue;
    }
    pairs.push([key, checkParameter(type, key, value)]);
  }
  // Array.prototype.sort is stable: repeated keys (sort=a&sort=b) keep their meaning.
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { pairs, preview };
}

/** Encodes pairs for the upstream URL; brackets and `$` stay readable (Strapi's qs parser takes both forms). */
export function encodeQuery(pairs: ReadonlyArray<readonly [string, string]>): string {
  const enc = (s: string) =>
    encodeURIComponent(s)
      .replace(/%5B/g, '[')
      .replace(/%5D/g, ']')
      .replace(/%24/g, '$')
      .replace(/%2C/g, ',')
      .replace(/%3A/g, ':');
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
  const { pairs, preview } = normaliseQuery(path.type, rawQuery);
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
