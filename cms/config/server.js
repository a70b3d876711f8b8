'use strict';
const { loadSecrets } = require('./secrets');

module.exports = ({ env }) => ({
  host: env('CMS_HOST', '127.0.0.1'),
  port: env.int('CMS_PORT', 1337),
  url: env('CMS_PUBLIC_URL', ''),
  app: { keys: loadSecrets().appKeys },
  webhooks: { populateRelations: false },
});
