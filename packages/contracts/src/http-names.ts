// The portal's header and cookie names, without the schemas of http.ts (which re-exports them): the browser's first
// download uses them and stays without zod (docs/requirements/platform.md#web-budget).
// Header names live in JSON so the CMS's CommonJS (which sends the webhook secret) reads the same names.
import headers from './http-headers.json';

/** Custom header every service call carries (docs/requirements/api.md#csrf-header); the server's CSRF check requires it. */
export const PORTAL_REQUEST_HEADER = headers.portalRequest;
export const PORTAL_REQUEST_HEADER_VALUE = '1';
/** Correlates a request across the browser, the server's logs and its answer. */
export const REQUEST_ID_HEADER = headers.requestId;
/** Authenticates the CMS's publish webhook to the portal (a shared secret). */
export const WEBHOOK_SECRET_HEADER = headers.webhookSecret;
/** Marks a content answer served from a stale copy while the CMS could not be reached. */
export const CONTENT_STALE_HEADER = headers.contentStale;

/** Cookie names (docs/requirements/public-site.md#cookies). */
export const REGION_COOKIE = 'region';
export const LICENSE_COOKIE = 'amaApproved';
/** docs/requirements/public-site.md#cookies: the region cookie lives 365 days when remembered. */
export const REMEMBER_COOKIE_DAYS = 365;
