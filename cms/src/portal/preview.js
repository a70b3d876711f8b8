'use strict';
// Strapi's preview (config/admin.js) opens the portal's preview page for the entry, with a link signed for that one
// document. The key is derived from the webhook secret the portal and the CMS already share (provision.js); the
// portal checks the link with the same rule (server/src/content/preview.ts, docs/decisions/0071-preview-in-the-cms.md):
//   key = HMAC-SHA256(webhook secret, keyLabel); signature = base64url(HMAC-SHA256(key, "preview:<type>:<id>:<expires>"))
const crypto = require('node:crypto');
const path = require('node:path');
const { webhookSecret } = require('./provision');

const links = require(path.resolve(__dirname, '..', '..', '..', 'packages', 'contracts', 'src', 'preview-links.json'));

/** The portal's public address, as the editor's browser reaches it. */
function portalUrl() {
  const configured = process.env.CMS_PORTAL_PUBLIC_URL || process.env.PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const webhook = process.env.CMS_PORTAL_WEBHOOK_URL;
  return webhook ? new URL(webhook).origin : `http://localhost:${process.env.PORT || 3000}`;
}

/** The signed preview address of a document, or null for a type without a page on the site (no preview button). */
function previewUrl(uid, { documentId }, now = Date.now()) {
  const type = links.types[uid];
  if (!type || !documentId) return null;
  const key = crypto.createHmac('sha256', webhookSecret()).update(links.keyLabel).digest();
  const expires = now + links.linkTtlMs;
  const signature = crypto
    .createHmac('sha256', key)
    .update(`preview:${type}:${documentId}:${expires}`)
    .digest('base64url');
  const query = new URLSearchParams({ expires: String(expires), signature });
  return `${portalUrl()}${links.pagePrefix}${type}/${documentId}?${query}`;
}

module.exports = { portalUrl, previewUrl };
