'use strict';
const fs = require('node:fs');
const path = require('node:path');

// The CMS reads only CMS_-prefixed settings so it never picks up the portal's DATABASE_URL by accident.
module.exports = ({ env }) => {
  const client = env('CMS_DATABASE_CLIENT', 'sqlite');
  if (client === 'postgres') {
    return {
      connection: {
        client: 'postgres',
        connection: {
          connectionString: env('CMS_DATABASE_URL'),
          host: env('CMS_DATABASE_HOST', '127.0.0.1'),
          port: env.int('CMS_DATABASE_PORT', 5432),
          database: env('CMS_DATABASE_NAME', 'portal_cms'),
          user: env('CMS_DATABASE_USERNAME', 'portal_cms'),
          password: env('CMS_DATABASE_PASSWORD', ''),
          ssl: env.bool('CMS_DATABASE_SSL', false)
            ? { rejectUnauthorized: env.bool('CMS_DATABASE_SSL_REJECT_UNAUTHORIZED', true) }
            : false,
          schema: env('CMS_DATABASE_SCHEMA', 'public'),
        },
        pool: { min: 0, max: env.int('CMS_DATABASE_POOL_MAX', 10) },
      },
    };
  }
  if (client !== 'sqlite')
    throw new Error(`CMS configuration error: CMS_DATABASE_CLIENT must be sqlite or postgres (got "${client}")`);
  // The SQLite file holds the token hashes and the webhook secret: its folder 0700 and the file (with its -wal and
  // -shm companions, created later by SQLite under the umask) 0600, narrowed when an older start left them wider.
  const filename = path.resolve(__dirname, '..', env('CMS_DATABASE_FILENAME', '.tmp/data.db'));
  process.umask(0o077);
  fs.mkdirSync(path.dirname(filename), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(filename), 0o700);
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`])
    if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
  return {
    connection: {
      client: 'sqlite',
      connection: { filename },
      useNullAsDefault: true,
    },
  };
};
