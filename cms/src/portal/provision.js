'use strict';
// Everything the portal server needs from the CMS, made true on every start: the error-message catalogue in
// step with the portal's error-code registry, no public sign-up and empty public/authenticated roles, the first
// administrator from settings, an API token that can only read the portal's content types (handed over in a
// file), and a webhook that tells the portal to drop its content cache.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const cmsRoot = path.resolve(__dirname, '..', '..');
const fromCms = (p) => path.resolve(cmsRoot, p);

const TOKEN_NAME = 'portal-server';
const WEBHOOK_NAME = 'portal-cache';
const WEBHOOK_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'media.create',
  'media.update',
  'media.delete',
];
// The content types the portal reads: one list, shared with the portal server's allow-list.
const httpHeaders = require(path.resolve(cmsRoot, '..', 'packages', 'contracts', 'src', 'http-headers.json'));
const contentTypes = require(path.resolve(cmsRoot, '..', 'packages', 'contracts', 'src', 'content-types.json')).types;
/** What the portal's token may do: find (and findOne on collections) on those types, nothing else. */
const TOKEN_PERMISSIONS = Object.values(contentTypes)
  .flatMap(({ uid, single }) => (single ? [`${uid}.find`] : [`${uid}.find`, `${uid}.findOne`]))
  .sort();

function writeSecretFile(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** Adds a published error message for every registry code that has none; editors' wording is never overwritten. */
async function syncErrorMessages(strapi) {
  const file = fromCms(process.env.CMS_ERROR_CODES_FILE || '../packages/contracts/src/error-codes.json');
  if (!fs.existsSync(file)) {
    strapi.log.warn(`[portal] error-code registry not found at ${file}; error messages not synchronised`);
    return;
  }
  const registry = JSON.parse(fs.readFileSync(file, 'utf8'));
  const rows = await strapi.db.query('api::error-message.error-message').findMany({ select: ['ErrorCode'] });
  const present = new Set(rows.map((r) => r.ErrorCode));
  const service = strapi.documents('api::error-message.error-message');
  let added = 0;
  for (const [code, message] of Object.entries(registry)) {
    if (present.has(code)) continue;
    await service.create({ data: { ErrorCode: code, Message: message }, status: 'published' });
    added += 1;
  }
  if (added) strapi.log.info(`[portal] added ${added} error message(s) from the registry`);
  await describeErrorMessages(strapi, path.join(path.dirname(file), 'error-code-places.json'));
}

/**
 * Where each message appears, from the registry's companion file (checked by a test to describe every code), shown
 * read-only beside the message in the editor: drafts and published versions alike, their wording and publication
 * state untouched.
 */
async function describeErrorMessages(strapi, file) {
  if (!fs.existsSync(file)) {
    strapi.log.warn(`[portal] ${file} not found; error messages are shown without where they appear`);
    return;
  }
  const places = JSON.parse(fs.readFileSync(file, 'utf8'));
  const query = strapi.db.query('api::error-message.error-message');
  const rows = await query.findMany({ select: ['ErrorCode', 'WhereItAppears'] });
  const stale = new Set(rows.filter((r) => r.WhereItAppears !== (places[r.ErrorCode] ?? null)).map((r) => r.ErrorCode));
  // updateMany with one object leaves updatedAt alone: a published message does not turn "Modified".
  for (const code of stale)
    await query.updateMany({ where: { ErrorCode: code }, data: { WhereItAppears: places[code] ?? null } });
}

/**
 * No end-user accounts in the CMS: public sign-up off, and the public and authenticated roles hold no permission
 * (Strapi grants sign-up, login and password reset to the public role by default). The portal reads content with
 * its token only.
 */
async function closePublicAccess(strapi) {
  const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
  const advanced = (await store.get({ key: 'advanced' })) || {};
  if (advanced.allow_register !== false)
    await store.set({ key: 'advanced', value: { ...advanced, allow_register: false } });
  const roles = await strapi.db
    .query('plugin::users-permissions.role')
    .findMany({ where: { type: { $in: ['public', 'authenticated'] } } });
  if (roles.length)
    await strapi.db
      .query('plugin::users-permissions.permission')
      .deleteMany({ where: { role: { id: { $in: roles.map((r) => r.id) } } } });
}

/**
 * The first administrator comes from CMS_ADMIN_EMAIL and CMS_ADMIN_PASSWORD, so nobody can claim a fresh CMS by
 * being first at /admin. Required in production while no administrator exists; on a laptop without them the
 * first visit to /admin registers one (see the README).
 */
async function provisionFirstAdmin(strapi) {
  const users = strapi.service('admin::user');
  if (await users.exists()) return;
  const email = process.env.CMS_ADMIN_EMAIL;
  const password = process.env.CMS_ADMIN_PASSWORD;
  if (!email || !password) {
    if (process.env.NODE_ENV === 'production')
      throw new Error(
        'CMS configuration error: CMS_ADMIN_EMAIL and CMS_ADMIN_PASSWORD must be set when NODE_ENV=production (no administrator exists yet)',
      );
    strapi.log.warn(
      '[portal] no CMS administrator yet: set CMS_ADMIN_EMAIL and CMS_ADMIN_PASSWORD, or register one at /admin',
    );
    return;
  }
  // Strapi's own rule for admin passwords (its registration form enforces it; the service does not).
  if (
    password.length < 8 ||
    password.length > 72 ||
    !/[a-z]/.test(password) ||
    !/[A-Z]/.test(password) ||
    !/\d/.test(password)
  ) {
    throw new Error(
      'CMS configuration error: CMS_ADMIN_PASSWORD must be 8 to 72 characters with a lower-case letter, an upper-case letter and a digit',
    );
  }
  await users.createFirstAdmin({ email: email.toLowerCase(), firstname: 'Administrator', password });
  strapi.log.info(`[portal] created the first CMS administrator from CMS_ADMIN_EMAIL`);
}

/**
 * The portal's token: a custom token allowed only TOKEN_PERMISSIONS (a read-only token would read every API route,
 * users and upload listings included). Its plain key exists only when created, so it is (re)generated whenever the
 * file is missing or stale.
 */
async function provisionToken(strapi) {
  const file = fromCms(process.env.CMS_PORTAL_TOKEN_FILE || '../data/cms-api-token');
  const service = strapi.service('admin::api-token');
  const token = await service.getByName(TOKEN_NAME);
  const onFile = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  if (
    token &&
    (token.type !== 'custom' ||
      JSON.stringify([...(token.permissions || [])].sort()) !== JSON.stringify(TOKEN_PERMISSIONS))
  ) {
    await service.update(token.id, { type: 'custom', permissions: TOKEN_PERMISSIONS });
    strapi.log.info('[portal] narrowed the portal token to reading the portal content types');
  }
  if (token && onFile) {
    // The service's getters leave the stored hash out, so compare against the row itself.
    const row = await strapi.db
      .query('admin::api-token')
      .findOne({ select: ['accessKey', 'expiresAt'], where: { id: token.id } });
    const expired = row?.expiresAt && new Date(row.expiresAt) <= new Date();
    if (row && !expired && service.hash(onFile) === row.accessKey) return;
  }
  let accessKey;
  if (token) {
    ({ accessKey } = await service.regenerate(token.id));
  } else {
    ({ accessKey } = await service.create({
      name: TOKEN_NAME,
      description: 'The portal server content proxy: reads the portal content types only',
      type: 'custom',
      permissions: TOKEN_PERMISSIONS,
      lifespan: null,
    }));
  }
  writeSecretFile(file, accessKey);
  strapi.log.info(`[portal] wrote the portal's API token to ${file}`);
}

function webhookSecret() {
  if (process.env.CMS_PORTAL_WEBHOOK_SECRET) return process.env.CMS_PORTAL_WEBHOOK_SECRET;
  const file = fromCms(process.env.CMS_PORTAL_WEBHOOK_SECRET_FILE || '../data/cms-webhook-secret');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    // Whoever starts first (portal or CMS) creates the shared secret; the other reads it.
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

async function provisionWebhook(strapi) {
  const url = process.env.CMS_PORTAL_WEBHOOK_URL || 'http://127.0.0.1:3000/api/content/webhook';
  const wanted = {
    name: WEBHOOK_NAME,
    url,
    headers: { [httpHeaders.webhookSecret]: webhookSecret() },
    events: WEBHOOK_EVENTS,
    isEnabled: true,
  };
  const store = strapi.get('webhookStore');
  const runner = strapi.get('webhookRunner');
  const existing = (await store.findWebhooks()).find((w) => w.name === WEBHOOK_NAME);
  if (!existing) {
    const created = await store.createWebhook(wanted);
    runner.add(created);
    return;
  }
  const same =
    existing.url === wanted.url &&
    JSON.stringify(existing.headers) === JSON.stringify(wanted.headers) &&
    JSON.stringify([...existing.events].sort()) === JSON.stringify([...WEBHOOK_EVENTS].sort()) &&
    existing.isEnabled;
  if (!same) {
    const updated = await store.updateWebhook(existing.id, wanted);
    runner.update(updated);
  }
}

/**
 * Tests only: with CMS_TEST_ADMIN_TOKEN_FILE set, a full-access token is written there so the portal's tests can
 * edit and publish content through the REST API. Refused when NODE_ENV=production.
 */
async function provisionTestAdminToken(strapi) {
  const file = process.env.CMS_TEST_ADMIN_TOKEN_FILE;
  if (!file) return;
  if (process.env.NODE_ENV === 'production') {
    strapi.log.warn('[portal] CMS_TEST_ADMIN_TOKEN_FILE is ignored when NODE_ENV=production');
    return;
  }
  const service = strapi.service('admin::api-token');
  const existing = await service.getByName('portal-tests');
  const { accessKey } = existing
    ? await service.regenerate(existing.id)
    : await service.create({
        name: 'portal-tests',
        description: 'Full access for the portal test suite',
        type: 'full-access',
        lifespan: null,
      });
  writeSecretFile(path.resolve(file), accessKey);
  strapi.log.warn(`[portal] wrote a full-access API token for tests to ${file}`);
}

async function provisionPortal(strapi) {
  await syncErrorMessages(strapi);
  await closePublicAccess(strapi);
  await provisionFirstAdmin(strapi);
  await provisionToken(strapi);
  await provisionWebhook(strapi);
  await provisionTestAdminToken(strapi);
}

module.exports = { provisionPortal, TOKEN_PERMISSIONS, webhookSecret };
