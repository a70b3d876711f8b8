import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The preview credential: drafts go only to editors holding a link signed with CONTENT_PREVIEW_SECRET. The link
 * (`/api/content/preview?token=…&to=/path`) sets an HttpOnly cookie carrying the same token; content requests
 * asking for `publicationState=preview` are answered with drafts only while that cookie is valid.
 * A token is `<expires, ms since epoch>.<HMAC-SHA256 of "content-preview:<expires>", base64url>`.
 */
export const PREVIEW_COOKIE = 'contentPreview';
export const PREVIEW_PATH = '/api/content/preview';
/** Default and longest lifetime of a preview link. */
export const PREVIEW_LINK_TTL_MS = 8 * 60 * 60 * 1000;
export const PREVIEW_MAX_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const signature = (secret: string, expires: number) =>
  createHmac('sha256', secret).update(`content-preview:${expires}`).digest();

export function signPreviewToken(secret: string, expiresAt: number): string {
  return `${expiresAt}.${signature(secret, expiresAt).toString('base64url')}`;
}

/** The token's expiry when it is genuine and current, else undefined. */
export function verifyPreviewToken(secret: string, token: unknown, now = Date.now()): number | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined;
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const expires = Number(m[1]);
  if (expires <= now || expires > now + PREVIEW_MAX_TTL_MS) return undefined;
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = signature(secret, expires);
  // Both are 32-byte digests: timingSafeEqual needs equal lengths, and the comparison leaks no prefix.
  return given.length === expected.length && timingSafeEqual(given, expected) ? expires : undefined;
}

/** A same-site path to land on after the link (never another host: `//x` and `/\x` are refused). */
export function safeLandingPath(to: unknown): string {
  if (typeof to !== 'string' || !/^\/(?![/\\])[^\s\\]{0,500}$/.test(to)) return '/';
  return to;
}

export function previewLink(
  publicUrl: string,
  secret: string,
  options: { to?: string; ttlMs?: number; now?: number } = {},
): string {
  const ttl = Math.min(options.ttlMs ?? PREVIEW_LINK_TTL_MS, PREVIEW_MAX_TTL_MS);
  const token = signPreviewToken(secret, (options.now ?? Date.now()) + ttl);
  const query = new URLSearchParams({ token, to: safeLandingPath(options.to ?? '/') });
  return `${publicUrl}${PREVIEW_PATH}?${query.toString()}`;
}

/** The value of one cookie in a Cookie header (the portal sets no other way to read it here). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
