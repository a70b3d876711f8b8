'use strict';
// Strapi's secrets come from CMS_-prefixed environment variables. On a laptop, missing ones are generated once
// into the gitignored .tmp/secrets.json (mode 0600) so restarts keep admin sessions and API tokens valid.
// In production (CMS_REQUIRE_SECRETS=true) a missing secret stops the CMS with a clear message.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const NAMES = {
  appKeys: 'CMS_APP_KEYS',
  apiTokenSalt: 'CMS_API_TOKEN_SALT',
  adminJwtSecret: 'CMS_ADMIN_JWT_SECRET',
  transferTokenSalt: 'CMS_TRANSFER_TOKEN_SALT',
  jwtSecret: 'CMS_JWT_SECRET',
  encryptionKey: 'CMS_ENCRYPTION_KEY',
};

let cached;

function loadSecrets() {
  if (cached) return cached;
  const file = path.resolve(__dirname, '..', '.tmp', 'secrets.json');
  const fromEnv = Object.fromEntries(
    Object.entries(NAMES)
      .map(([key, name]) => [key, process.env[name]])
      .filter(([, v]) => v),
  );
  const missing = Object.keys(NAMES).filter((key) => !fromEnv[key]);
  if (missing.length && process.env.CMS_REQUIRE_SECRETS === 'true') {
    throw new Error(
      `CMS configuration error: ${missing.map((k) => NAMES[k]).join(', ')} must be set when CMS_REQUIRE_SECRETS=true`,
    );
  }
  if (missing.length && process.env.NODE_ENV === 'production') {
    console.warn(
      `[cms] ${missing.map((k) => NAMES[k]).join(', ')} not set: using generated secrets from ${file}. Set CMS_REQUIRE_SECRETS=true in production to make this an error.`,
    );
  }
  let stored = {};
  if (missing.length) {
    if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    let changed = false;
    for (const key of missing) {
      if (!stored[key]) {
        stored[key] =
          key === 'appKeys'
            ? [1, 2, 3, 4].map(() => crypto.randomBytes(16).toString('base64')).join(',')
            : crypto.randomBytes(32).toString('base64');
        changed = true;
      }
    }
    if (changed) {
      // Written to a temporary file and renamed, so a CMS starting in parallel (tests) never reads half a file.
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(stored, null, 2), { mode: 0o600 });
      fs.renameSync(tmp, file);
    }
  }
  const merged = { ...stored, ...fromEnv };
  cached = { ...merged, appKeys: String(merged.appKeys).split(',') };
  return cached;
}

module.exports = { loadSecrets };
