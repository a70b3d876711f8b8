// The editors' preview links (docs/decisions/0071-preview-in-the-cms.md), in JSON so the CMS's CommonJS, which signs
// them (cms/src/portal/preview.js), and the portal, which checks them (server/src/content/preview.ts), share one rule.
import links from './preview-links.json';

/** The key both sides derive from the webhook secret: HMAC-SHA256(secret, PREVIEW_KEY_LABEL). */
export const PREVIEW_KEY_LABEL = links.keyLabel;
/** The preview page, `/preview/<type>/<documentId>?expires=…&signature=…`, and the draft read behind it. */
export const PREVIEW_PAGE_PREFIX = links.pagePrefix;
export const PREVIEW_API_PREFIX = links.apiPrefix;
/** How long a link the CMS signs stays valid (1 hour), and the longest expiry the portal accepts (24 hours). */
export const PREVIEW_LINK_TTL_MS = links.linkTtlMs;
export const PREVIEW_MAX_TTL_MS = links.maxTtlMs;
/** Content types with a preview page: the CMS's uid → the portal's content path. */
export const PREVIEW_TYPES = links.types;
