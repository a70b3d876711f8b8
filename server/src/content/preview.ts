import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  PREVIEW_KEY_LABEL,
  PREVIEW_MAX_TTL_MS,
  PREVIEW_PAGE_PREFIX,
  PREVIEW_TYPES,
} from '@portal/contracts/preview-links';

export { PREVIEW_API_PREFIX, PREVIEW_MAX_TTL_MS, PREVIEW_PAGE_PREFIX } from '@portal/contracts/preview-links';

/**
 * The editors' preview (docs/decisions/0071-preview-in-the-cms.md): Strapi's preview button opens
 * `/preview/<type>/<documentId>?expires=…&signature=…` on this portal, a link the CMS signs with a key both sides
 * derive from the webhook secret they already share (handover.ts). The page reads that one draft through
 * `/api/content/preview/<type>/<documentId>` with the same two parameters; drafts are never cached or rendered on the
 * server. cms/src/portal/preview.js signs with the same rule (constants in packages/contracts/src/preview-links.json).
 *
 * key = HMAC-SHA256(webhook secret, "portal content preview key v1")
 * signature = base64url(HMAC-SHA256(key, "preview:<type>:<documentId>:<expires, ms since epoch>"))
 */
const PREVIEW_TYPE_NAMES: readonly string[] = Object.values(PREVIEW_TYPES);

export interface PreviewGrant {
  /** The portal's content path of the type (`topics`). */
  type: string;
  documentId: string;
  expires: number;
}

const DOCUMENT_ID = /^[a-z0-9]{1,64}$/;

export function previewKey(webhookSecret: string): Buffer {
  return createHmac('sha256', webhookSecret).update(PREVIEW_KEY_LABEL).digest();
}

function signature(key: Buffer, type: string, documentId: string, expires: number): Buffer {
  return createHmac('sha256', key).update(`preview:${type}:${documentId}:${expires}`).digest();
}

export function signPreview(key: Buffer, grant: PreviewGrant): string {
  return signature(key, grant.type, grant.documentId, grant.expires).toString('base64url');
}

/**
 * The grant when the link is genuine, current and for this document; else undefined (wrong key, another document or
 * type, expired, an expiry further away than PREVIEW_MAX_TTL_MS, malformed).
 */
export function verifyPreview(
  key: Buffer,
  request: { type: string; documentId: string; expires: unknown; signature: unknown },
  now = Date.now(),
): PreviewGrant | undefined {
  const { type, documentId } = request;
  if (!PREVIEW_TYPE_NAMES.includes(type) || !DOCUMENT_ID.test(documentId)) return undefined;
  if (typeof request.expires !== 'string' || !/^\d{1,15}$/.test(request.expires)) return undefined;
  if (typeof request.signature !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(request.signature)) return undefined;
  const expires = Number(request.expires);
  if (expires <= now || expires > now + PREVIEW_MAX_TTL_MS) return undefined;
  const given = Buffer.from(request.signature, 'base64url');
  const expected = signature(key, type, documentId, expires);
  // Both are 32-byte digests: timingSafeEqual needs equal lengths, and the comparison leaks no prefix.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { type, documentId, expires };
}

/** The preview page's address for a grant (what the CMS's preview handler answers; tests use it too). */
export function previewPageUrl(publicUrl: string, key: Buffer, grant: PreviewGrant): string {
  const query = new URLSearchParams({ expires: String(grant.expires), signature: signPreview(key, grant) });
  return `${publicUrl.replace(/\/+$/, '')}${PREVIEW_PAGE_PREFIX}${grant.type}/${grant.documentId}?${query.toString()}`;
}
